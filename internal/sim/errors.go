package sim

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// apiError is an error answer of the interface. The spec does not show the
// shape of an error body; the simulator answers
//
//	{"status": 400, "error": "Bad Request", "parameter": "page_size", "message": "..."}
//
// where parameter is present when one query parameter is at fault.
type apiError struct {
	Status    int    `json:"status"`
	Error     string `json:"error"`
	Parameter string `json:"parameter,omitempty"`
	Message   string `json:"message"`
}

func newAPIError(status int, param, format string, args ...any) *apiError {
	return &apiError{Status: status, Error: http.StatusText(status), Parameter: param, Message: fmt.Sprintf(format, args...)}
}

func errBadParam(param, format string, args ...any) *apiError {
	return newAPIError(http.StatusBadRequest, param, format, args...)
}

func errNotFound(param, format string, args ...any) *apiError {
	return newAPIError(http.StatusNotFound, param, format, args...)
}

func errForbidden(msg string) *apiError { return newAPIError(http.StatusForbidden, "", "%s", msg) }
func errUnauthorized(msg string) *apiError {
	return newAPIError(http.StatusUnauthorized, "", "%s", msg)
}

func writeError(w http.ResponseWriter, e *apiError) {
	body, _ := json.Marshal(e) // a struct of strings and an int always encodes
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(e.Status)
	w.Write(body)
}
