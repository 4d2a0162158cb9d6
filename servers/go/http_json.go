package main

import "net/http"

// http-json on Go: net/http. Same bytes as the deno, node and bun servers.
var helloBody = []byte(`{"message":"Hello, World!"}`)

func httpJSON() (http.Handler, func(), error) {
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		send(w, http.StatusOK, "application/json", helloBody)
	}), noRelease, nil
}
