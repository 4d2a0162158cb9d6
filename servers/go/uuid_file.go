package main

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
)

// uuid-file on Go: net/http with os.WriteFile, os.ReadFile and os.Remove. Same bytes as the
// deno, node and bun servers: the four query parameters as JSON, null where one is missing.
func uuidFile() (http.Handler, func(), error) {
	dir := os.Getenv("RTBENCH_DATA_DIR")
	if dir == "" {
		return nil, nil, errors.New("RTBENCH_DATA_DIR is not set")
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := roundTrip(dir, r)
		if err != nil {
			send(w, http.StatusInternalServerError, "text/plain", []byte("Internal Server Error"))
			return
		}
		send(w, http.StatusOK, "application/json", body)
	}), noRelease, nil
}

func roundTrip(dir string, r *http.Request) ([]byte, error) {
	query := r.URL.Query()
	record := make([]*string, 4)
	for i := range record {
		if values, ok := query[fmt.Sprintf("q%d", i+1)]; ok {
			record[i] = &values[0]
		}
	}
	content, err := jsonObject(record)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, uuidV4()+".json")
	if err := os.WriteFile(file, content, 0o644); err != nil {
		return nil, err
	}
	body, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return body, os.Remove(file)
}

// jsonObject writes {"q1":..,"q4":..} as JSON.stringify does: keys in order, no HTML escaping.
func jsonObject(values []*string) ([]byte, error) {
	var out bytes.Buffer
	encoder := json.NewEncoder(&out)
	encoder.SetEscapeHTML(false)
	result := []byte{'{'}
	for i, value := range values {
		out.Reset()
		if err := encoder.Encode(value); err != nil {
			return nil, err
		}
		if i > 0 {
			result = append(result, ',')
		}
		result = fmt.Appendf(result, `"q%d":`, i+1)
		result = append(result, bytes.TrimSuffix(out.Bytes(), []byte{'\n'})...)
	}
	return append(result, '}'), nil
}

func uuidV4() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
