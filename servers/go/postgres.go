package main

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgxpool"
)

// postgres on Go: net/http and pgx's pool. Same bytes as the deno, node and bun servers.
// GET /db: one random row of world; GET /queries?n=: n random rows, one query each, n clamped to 1..500.

type world struct {
	ID           int32 `json:"id"`
	RandomNumber int32 `json:"randomNumber"`
}

func postgresServer() (http.Handler, func(), error) {
	config, err := pgxpool.ParseConfig(os.Getenv("DATABASE_URL"))
	if err != nil {
		return nil, nil, err
	}
	size, err := strconv.Atoi(os.Getenv("DATABASE_POOL"))
	if err != nil {
		return nil, nil, err
	}
	config.MaxConns = int32(size)
	config.ConnConfig.RuntimeParams["search_path"] = os.Getenv("DATABASE_SCHEMA")
	config.ConnConfig.RuntimeParams["application_name"] = os.Getenv("DATABASE_APP_NAME")
	pool, err := pgxpool.NewWithConfig(context.Background(), config)
	if err != nil {
		return nil, nil, err
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var rows any
		var err error
		switch r.URL.Path {
		case "/db":
			rows, err = find(r.Context(), pool)
		case "/queries":
			rows, err = findMany(r.Context(), pool, count(r.URL.Query().Get("n")))
		default:
			send(w, http.StatusNotFound, "text/plain", []byte("Not Found"))
			return
		}
		var body []byte
		if err == nil {
			body, err = json.Marshal(rows)
		}
		if err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			send(w, http.StatusInternalServerError, "text/plain", []byte("Internal Server Error"))
			return
		}
		send(w, http.StatusOK, "application/json", body)
	}), pool.Close, nil
}

func find(ctx context.Context, pool *pgxpool.Pool) (world, error) {
	var row world
	err := pool.QueryRow(ctx, "select id, randomnumber from world where id = $1", 1+rand.IntN(10000)).
		Scan(&row.ID, &row.RandomNumber)
	return row, err
}

// findMany runs the n queries at once over the pool, as the other runtimes' servers do (Promise.all,
// tokio-postgres's pipelining), rather than one after another.
func findMany(ctx context.Context, pool *pgxpool.Pool, n int) ([]world, error) {
	rows := make([]world, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range rows {
		wg.Go(func() { rows[i], errs[i] = find(ctx, pool) })
	}
	wg.Wait()
	return rows, errors.Join(errs...)
}

// count reads n as JavaScript's parseInt does (leading digits, "abc" → 1), clamped to 1..500.
func count(value string) int {
	value = strings.TrimLeft(value, " \t\n")
	end := 0
	if end < len(value) && (value[0] == '-' || value[0] == '+') {
		end++
	}
	for end < len(value) && value[end] >= '0' && value[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(value[:end])
	if err != nil {
		return 1
	}
	return min(500, max(1, n))
}
