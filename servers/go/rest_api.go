package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// rest-api on Go: net/http and pgx's pool, with the same rules as the JavaScript servers (servers/shared/
// users_http.mjs): input checks, error bodies, and with REST_STACK=production the production stack (004's middleware:
// CORS headers on every response, a preflight answered, a JWT bearer token verified on every other request).
// Same bytes as the deno, node and bun servers: created_at is written by PostgreSQL as Date.toJSON writes it.

type user struct {
	ID        int32  `json:"id"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	CreatedAt string `json:"createdAt"`
}

// The columns every query returns, created_at as `2026-01-01T00:01:00.000Z`.
const userColumns = `id, name, email, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

var (
	notFound     = []byte(`{"error":"not found"}`)
	invalidUser  = []byte(`{"error":"invalid user"}`)
	unauthorized = []byte(`{"error":"unauthorized"}`)
)

type restAPI struct {
	pool   *pgxpool.Pool
	stack  bool
	origin string
	secret []byte
}

func restAPIServer() (http.Handler, func(), error) {
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
	api := &restAPI{
		pool:   pool,
		stack:  os.Getenv("REST_STACK") == "production",
		origin: os.Getenv("CORS_ORIGIN"),
		secret: []byte(os.Getenv("JWT_SECRET")),
	}
	return api, pool.Close, nil
}

func (api *restAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if api.stack {
		w.Header()["Access-Control-Allow-Origin"] = []string{api.origin}
		w.Header()["Vary"] = []string{"Origin"}
		if r.Method == http.MethodOptions {
			h := w.Header()
			h["Access-Control-Allow-Methods"] = []string{"GET, POST, PUT, DELETE"}
			h["Access-Control-Allow-Headers"] = []string{"authorization, content-type"}
			h["Access-Control-Max-Age"] = []string{"600"}
			w.WriteHeader(http.StatusNoContent)
			return
		}
		token, found := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if !found || token == "" || !validJWT(token, api.secret, time.Now()) {
			send(w, http.StatusUnauthorized, "application/json", unauthorized)
			return
		}
	}
	status, body, err := api.route(r)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		send(w, http.StatusInternalServerError, "application/json", []byte(`{"error":"internal"}`))
		return
	}
	if status == http.StatusNoContent {
		w.WriteHeader(status)
		return
	}
	send(w, status, "application/json", body)
}

// route answers one request: a status and a JSON body.
func (api *restAPI) route(r *http.Request) (int, []byte, error) {
	ctx := r.Context()
	if r.URL.Path == "/users" {
		switch r.Method {
		case http.MethodGet:
			q := r.URL.Query()
			return api.listUsers(ctx, q.Get("page"), q.Get("limit"), q.Has("page"), q.Has("limit"))
		case http.MethodPost:
			name, email, ok := validUser(r)
			if !ok {
				return http.StatusBadRequest, invalidUser, nil
			}
			return api.one(ctx, http.StatusCreated, "insert into users (name, email) values ($1, $2) returning "+userColumns, name, email)
		}
	}
	rest, found := strings.CutPrefix(r.URL.Path, "/users/")
	if !found || rest == "" || strings.Contains(rest, "/") {
		return http.StatusNotFound, notFound, nil
	}
	id, idOK := idOf(rest)
	switch r.Method {
	case http.MethodGet:
		if !idOK {
			return http.StatusNotFound, notFound, nil
		}
		return api.one(ctx, http.StatusOK, "select "+userColumns+" from users where id = $1", id)
	case http.MethodPut:
		name, email, ok := validUser(r)
		if !ok {
			return http.StatusBadRequest, invalidUser, nil
		}
		if !idOK {
			return http.StatusNotFound, notFound, nil
		}
		return api.one(ctx, http.StatusOK, "update users set name = $2, email = $3 where id = $1 returning "+userColumns, id, name, email)
	case http.MethodDelete:
		if !idOK {
			return http.StatusNotFound, notFound, nil
		}
		tag, err := api.pool.Exec(ctx, "delete from users where id = $1", id)
		if err != nil {
			return 0, nil, err
		}
		if tag.RowsAffected() == 1 {
			return http.StatusNoContent, nil, nil
		}
	}
	return http.StatusNotFound, notFound, nil
}

// one answers with the one user a query returns (status), or 404 when it returns none.
func (api *restAPI) one(ctx context.Context, status int, query string, args ...any) (int, []byte, error) {
	var u user
	err := api.pool.QueryRow(ctx, query, args...).Scan(&u.ID, &u.Name, &u.Email, &u.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return http.StatusNotFound, notFound, nil
	}
	if err != nil {
		return 0, nil, err
	}
	body, err := marshal(u)
	return status, body, err
}

func (api *restAPI) listUsers(ctx context.Context, pageText, limitText string, hasPage, hasLimit bool) (int, []byte, error) {
	page, ok := parseIntJS(pageText)
	if !hasPage || !ok || page < 1 {
		page = 1
	}
	limit, ok := parseIntJS(limitText)
	if !hasLimit || !ok {
		limit = 10
	}
	limit = min(100, max(1, limit))
	rows, err := api.pool.Query(ctx, "select "+userColumns+" from users order by id limit $1 offset $2", limit, (page-1)*limit)
	if err != nil {
		return 0, nil, err
	}
	users, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (user, error) {
		var u user
		err := row.Scan(&u.ID, &u.Name, &u.Email, &u.CreatedAt)
		return u, err
	})
	if err != nil {
		return 0, nil, err
	}
	body, err := marshal(struct {
		Page  int64  `json:"page"`
		Limit int64  `json:"limit"`
		Users []user `json:"users"`
	}{page, limit, users})
	return http.StatusOK, body, err
}

// marshal writes JSON as JSON.stringify does: no HTML escaping, no trailing newline.
func marshal(value any) ([]byte, error) {
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	if err := encoder.Encode(value); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(out.Bytes(), []byte("\n")), nil
}

// idOf reads :id as the JavaScript servers do: 1 to 10 digits, no leading zero; ids beyond PostgreSQL's integer
// cannot exist.
func idOf(text string) (int32, bool) {
	if len(text) == 0 || len(text) > 10 || text[0] < '1' || text[0] > '9' {
		return 0, false
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil || n > 2147483647 {
		return 0, false
	}
	return int32(n), true
}

// parseIntJS reads a number as JavaScript's parseInt does: leading whitespace, a sign, the leading digits.
func parseIntJS(value string) (int64, bool) {
	value = strings.TrimLeft(value, " \t\n\r\v\f")
	end := 0
	if end < len(value) && (value[0] == '-' || value[0] == '+') {
		end++
	}
	for end < len(value) && value[end] >= '0' && value[end] <= '9' {
		end++
	}
	n, err := strconv.ParseInt(value[:end], 10, 64)
	return n, err == nil
}

// validUser reads {name, email} from the body as users_http.mjs's validUser does.
func validUser(r *http.Request) (string, string, bool) {
	// The whole body must be one JSON object, as JSON.parse reads it (trailing text makes it invalid).
	raw, err := io.ReadAll(r.Body)
	var body map[string]any
	if err != nil || json.Unmarshal(raw, &body) != nil {
		return "", "", false
	}
	name, nameOK := body["name"].(string)
	email, emailOK := body["email"].(string)
	if !nameOK || !emailOK {
		return "", "", false
	}
	// JavaScript measures strings in UTF-16 code units.
	nameLength := len(utf16.Encode([]rune(name)))
	if nameLength == 0 || nameLength > 100 || len(utf16.Encode([]rune(email))) > 200 || !validEmail(email) {
		return "", "", false
	}
	return name, email, true
}

// jsSpace is JavaScript's \s.
func jsSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', '\u00a0', '\u1680', '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff':
		return true
	}
	return r >= '\u2000' && r <= '\u200a'
}

// validEmail is /^[^@\s]+@[^@\s]+$/.
func validEmail(email string) bool {
	local, domain, found := strings.Cut(email, "@")
	if !found || local == "" || domain == "" || strings.Contains(domain, "@") {
		return false
	}
	return !strings.ContainsFunc(email, func(r rune) bool { return r != '@' && jsSpace(r) })
}

// validJWT checks an HS256 token as jose's jwtVerify does for rtbench's tokens: the algorithm, the signature, the
// issuer `rtbench`, the audience `rest-api`, and the expiry and not-before times when present.
func validJWT(token string, secret []byte, now time.Time) bool {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return false
	}
	var header struct {
		Alg string `json:"alg"`
	}
	var claims map[string]any
	if !decodeSegment(parts[0], &header) || header.Alg != "HS256" || !decodeSegment(parts[1], &claims) {
		return false
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(parts[0] + "." + parts[1]))
	signature, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || !hmac.Equal(signature, mac.Sum(nil)) {
		return false
	}
	seconds := float64(now.Unix())
	if exp, ok := claims["exp"]; ok {
		if n, isNumber := exp.(float64); !isNumber || seconds >= n {
			return false
		}
	}
	if nbf, ok := claims["nbf"]; ok {
		if n, isNumber := nbf.(float64); !isNumber || seconds < n {
			return false
		}
	}
	if claims["iss"] != "rtbench" {
		return false
	}
	switch aud := claims["aud"].(type) {
	case string:
		return aud == "rest-api"
	case []any:
		for _, a := range aud {
			if a == "rest-api" {
				return true
			}
		}
	}
	return false
}

func decodeSegment(segment string, into any) bool {
	raw, err := base64.RawURLEncoding.DecodeString(segment)
	return err == nil && json.Unmarshal(raw, into) == nil
}
