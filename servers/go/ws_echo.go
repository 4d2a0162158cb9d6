package main

import (
	"net/http"

	"github.com/gorilla/websocket"
)

// ws on Go: gorilla/websocket. Echoes every message unchanged, text as text, binary as binary.
func wsEcho() (http.Handler, func(), error) {
	// Like the other runtimes' servers, accept any origin: the load generator sends none.
	upgrader := websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !websocket.IsWebSocketUpgrade(r) {
			send(w, http.StatusUpgradeRequired, "text/plain", []byte("Upgrade Required"))
			return
		}
		conn, err := upgrader.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		for {
			kind, message, err := conn.ReadMessage()
			if err != nil || conn.WriteMessage(kind, message) != nil {
				return
			}
		}
	}), noRelease, nil
}
