// rtbench's Go servers: one binary, one server per workload, chosen by its first argument
// (`servers http_json`). Each listens on $HOST:$PORT and answers with the same bytes as the
// deno, node and bun servers of its workload.
package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"
)

// Each workload's server: its handler, and what to release once it has stopped.
var servers = map[string]func() (http.Handler, func(), error){
	"http_json": httpJSON,
	"uuid_file": uuidFile,
	"postgres":  postgresServer,
	"rest_api":  restAPIServer,
	"ws_echo":   wsEcho,
}

func env(name, fallback string) string {
	if value := os.Getenv(name); value != "" {
		return value
	}
	return fallback
}

func main() {
	if len(os.Args) < 2 || servers[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: servers http_json|uuid_file|postgres|rest_api|ws_echo")
		os.Exit(2)
	}
	handler, release, err := servers[os.Args[1]]()
	if err != nil {
		fmt.Fprintf(os.Stderr, "Cannot start server: %v\n", err)
		os.Exit(1)
	}
	defer release()
	server := &http.Server{Addr: net.JoinHostPort(env("HOST", "127.0.0.1"), env("PORT", "3000")), Handler: handler}
	stopped := make(chan struct{})
	go func() {
		// On stop, finish the requests in flight so that none leaves its file behind.
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
		<-signals
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		server.Shutdown(ctx)
		close(stopped)
	}()
	// rtbench reads this line to check how many CPUs the server runs on.
	fmt.Printf("rtbench: workers %d\n", runtime.GOMAXPROCS(0))
	if err := server.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(os.Stderr, "Cannot start server: %v\n", err)
		os.Exit(1)
	}
	<-stopped
}

// send writes a whole response with an exact content-type and content-length, as the other runtimes do.
func send(w http.ResponseWriter, status int, contentType string, body []byte) {
	header := w.Header()
	header["Content-Type"] = []string{contentType}
	header["Content-Length"] = []string{fmt.Sprint(len(body))}
	w.WriteHeader(status)
	w.Write(body)
}

func noRelease() {}
