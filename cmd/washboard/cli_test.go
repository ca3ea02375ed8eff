package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestParseFlagsEnvironmentFallback(t *testing.T) {
	t.Parallel()
	env := map[string]string{"WASHBOARD_LISTEN": ":7000", "WASHBOARD_SEED": "9", "WASHBOARD_API_KEY": "from-env"}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	listen := fs.String("listen", ":1", "")
	seed := fs.Int("seed", 1, "")
	key := fs.String("api-key", "", "")
	if err := parseFlags(fs, []string{"--seed", "3"}, func(k string) string { return env[k] }); err != nil {
		t.Fatal(err)
	}
	if *listen != ":7000" {
		t.Errorf("listen = %q, want the environment's :7000", *listen)
	}
	if *seed != 3 {
		t.Errorf("seed = %d, want 3: a flag on the command line wins over the environment", *seed)
	}
	if *key != "from-env" {
		t.Errorf("api-key = %q, want WASHBOARD_API_KEY's value", *key)
	}
}

func TestParseFlagsBadEnvironmentNamesTheVariable(t *testing.T) {
	t.Parallel()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Int("devices", 1, "")
	err := parseFlags(fs, nil, func(k string) string {
		if k == "WASHBOARD_DEVICES" {
			return "lots"
		}
		return ""
	})
	if err == nil || !strings.Contains(err.Error(), "WASHBOARD_DEVICES") {
		t.Errorf("error = %v, want one naming WASHBOARD_DEVICES", err)
	}
}

func TestParseDuration(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]time.Duration{
		"30d": 30 * 24 * time.Hour, "1d12h": 36 * time.Hour, "90m": 90 * time.Minute, "0d": 0, "2s": 2 * time.Second,
	} {
		if got, err := parseDuration(in); err != nil || got != want {
			t.Errorf("parseDuration(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"", "d", "xd", "-1d", "3 days", "-5m"} {
		if _, err := parseDuration(in); err == nil {
			t.Errorf("parseDuration(%q) succeeded; want an error", in)
		}
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"nope"}, `unknown command "nope"`},
		{[]string{"sim", "--devices", "0"}, "--devices must be at least 1"},
		{[]string{"sim", "--accounts", "1001"}, "--accounts must be at most 1000, got 1001"},
		{[]string{"sim", "--accounts", "200", "--devices", "2501"}, "--accounts times --devices must be at most 500000 device locations in all, got 200 × 2501"},
		{[]string{"serve", "--upstream", "http://127.0.0.1:1", "--audit-log", "12h"}, "--audit-log must be at least 1d, got 12h0m0s"},
		{[]string{"sim", "--speed", "0.5"}, "--speed must be at least 1"},
		{[]string{"demo", "--accounts", "51"}, "--accounts must be from 1 to 50, got 51"},
		{[]string{"demo", "--accounts", "0"}, "--accounts must be from 1 to 50, got 0"},
		{[]string{"sim", "--error-rate", "2"}, "--error-rate must be from 0 to 1"},
		{[]string{"sim", "--history", "soon"}, `"soon" is not a duration`},
		{[]string{"sim", "--tz", "Mars/Olympus"}, "--tz"},
		{[]string{"sim", "extra"}, `unexpected argument "extra"`},
		{[]string{"sim", "--token-lifetime", "0"}, "--token-lifetime must be positive, got 0s"},
		{[]string{"sim", "--token-lifetime", "0d"}, "--token-lifetime must be positive"},
		{[]string{"sim", "--token-lifetime", "-1h"}, `"-1h" is not a duration`},
		{[]string{"sim", "--client-secret", "s"}, "--client-secret needs --client-id"},
		{[]string{"sim", "--client-id", "c"}, "--client-id needs --client-secret"},
		{[]string{"sim", "--authorization", "Bearer x", "--token-lifetime", "1h"}, "--authorization cannot be used with --token-lifetime"},
		{[]string{"sim", "--webhook-drop-rate", "1.5"}, "--webhook-drop-rate must be from 0 to 1"},
		{[]string{"sim", "--webhook-drop-rate", "-0.1"}, "--webhook-drop-rate must be from 0 to 1"},
		{[]string{"sim", "--webhook-drop-rate", "lots"}, "-webhook-drop-rate"},
		{[]string{"sim", "--webhook-secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}, "--webhook-secret needs --webhook-url"},
		{[]string{"sim", "--webhook-url", "ftp://example.com/hook"}, "--webhook-url must be an absolute http:// or https:// URL"},
		{[]string{"sim", "--webhook-url", "example.com/hook"}, "--webhook-url must be an absolute http:// or https:// URL"},
		{[]string{"sim", "--webhook-url", "https://user:pw@example.com/hook"}, "--webhook-url must not carry a user name or password"},
		{[]string{"sim", "--webhook-url", "https://example.com/hook", "--webhook-secret", "whsec_c2VjcmV0LXRvby1zaG9ydA=="}, "--webhook-secret: webhook secret holds a key of 16 bytes"},
		{[]string{"sim", "--webhook-url", "https://example.com/hook", "--webhook-secret", "whsec_not-base64!"}, "--webhook-secret: webhook secret is not standard base64"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		code := run(context.Background(), tt.args, io.Discard, &stderr)
		if code != 2 {
			t.Errorf("%v: exit code %d, want 2", tt.args, code)
		}
		if !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%v: stderr %q does not say %q", tt.args, stderr.String(), tt.want)
		}
		for i, arg := range tt.args {
			if i > 0 && tt.args[i-1] == "--webhook-secret" && strings.Contains(stderr.String(), strings.TrimPrefix(arg, "whsec_")) {
				t.Errorf("%v: stderr %q repeats the secret", tt.args, stderr.String())
			}
		}
	}
}

func TestSimTokenLifetimeFromEnvironmentIsValidated(t *testing.T) {
	t.Setenv("WASHBOARD_TOKEN_LIFETIME", "0s")
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"sim"}, io.Discard, &stderr); code != 2 || !strings.Contains(stderr.String(), "--token-lifetime must be positive") {
		t.Errorf("exit code %d, stderr %q; want 2 and the zero lifetime refused", code, stderr.String())
	}
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startSim runs "washboard sim" with args and returns its base URL and
// what it printed up to the line with the address. Cancelling ctx stops it;
// its exit code then arrives on done.
func startSim(t *testing.T, ctx context.Context, args ...string) (base, printed string, done <-chan int, stderr *syncBuffer) {
	t.Helper()
	outR, outW := io.Pipe()
	stderr = new(syncBuffer)
	exit := make(chan int, 1)
	go func() {
		exit <- run(ctx, append([]string{"sim", "--listen", "127.0.0.1:0"}, args...), outW, stderr)
		outW.Close()
	}()

	// Read what the command prints up to the line with its address.
	var out strings.Builder
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if m := regexp.MustCompile(`on (http://\S+) `).FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
			break
		}
	}
	go io.Copy(io.Discard, outR)
	if base == "" {
		t.Fatalf("no address printed; output:\n%s\nstderr:\n%s", out.String(), stderr.String())
	}
	return base, out.String(), exit, stderr
}

func TestSimServesAndStopsCleanly(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, printed, done, stderr := startSim(t, ctx, "--devices", "40", "--history", "2d", "--accounts", "2")
	keys := regexp.MustCompile(`x-api-key:\s+(\S+)`).FindAllStringSubmatch(printed, -1)
	auths := regexp.MustCompile(`Authorization:\s+(.+)`).FindAllStringSubmatch(printed, -1)
	if len(keys) != 2 || len(auths) != 2 {
		t.Fatalf("want the made-up credentials of both accounts printed; output:\n%s", printed)
	}

	req, _ := http.NewRequest(http.MethodGet, base+"/alerts", nil)
	req.Header.Set("x-api-key", keys[1][1])
	req.Header.Set("Authorization", strings.TrimSpace(auths[1][1]))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /alerts with the second account's printed credentials: %s", resp.Status)
	}
	if !strings.Contains(printed, "its OpenAPI document at /openapi.json") {
		t.Errorf("the OpenAPI document's address is not printed; output:\n%s", printed)
	}
	resp, err = http.Get(base + "/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(string(doc), `"openapi": "3.1.`) {
		t.Errorf("GET /openapi.json without credentials: %s, Content-Type %q, body %.100s; want the OpenAPI document", resp.Status, resp.Header.Get("Content-Type"), doc)
	}

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit code %d after cancellation, want 0; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the simulator did not stop within 10 s of cancellation")
	}
	logs := stderr.String()
	if !regexp.MustCompile(`method=GET path=/alerts status=200 duration=\S+`).MatchString(logs) {
		t.Errorf("no request line in the log:\n%s", logs)
	}
	for _, secret := range []string{keys[0][1], keys[1][1], strings.TrimSpace(auths[1][1])} {
		if strings.Contains(logs, secret) {
			t.Error("a credential appears in the log")
		}
	}
}

func TestSimIssuesTokens(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, printed, done, stderr := startSim(t, ctx, "--devices", "20", "--history", "1d", "--accounts", "2", "--speed", "60",
		"--api-key", "key-1", "--client-id", "north id", "--client-secret", "s3cr:t+1", "--token-lifetime", "2h")
	if strings.Contains(printed, "north id") || strings.Contains(printed, "s3cr:t+1") || strings.Contains(printed, "Authorization:") {
		t.Errorf("want neither the client given by flag nor fixed Authorization values printed; output:\n%s", printed)
	}
	if !strings.Contains(printed, "Access tokens last 2h0m0s of simulated time (2m0s real)") {
		t.Errorf("the token lifetime is not printed in simulated and real time; output:\n%s", printed)
	}
	key2 := regexp.MustCompile(`x-api-key:\s+(\S+)`).FindStringSubmatch(printed)
	id2 := regexp.MustCompile(`client_id:\s+(\S+)`).FindAllStringSubmatch(printed, -1)
	secret2 := regexp.MustCompile(`client_secret:\s+(\S+)`).FindAllStringSubmatch(printed, -1)
	if key2 == nil || len(id2) != 1 || len(secret2) != 1 {
		t.Fatalf("want the second account's made-up key and client printed, once; output:\n%s", printed)
	}

	var tokens []string
	for _, acct := range []struct{ key, id, secret string }{{"key-1", "north id", "s3cr:t+1"}, {key2[1], id2[0][1], secret2[0][1]}} {
		req, _ := http.NewRequest(http.MethodPost, base+"/oauth/token", strings.NewReader("grant_type=client_credentials"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.SetBasicAuth(url.QueryEscape(acct.id), url.QueryEscape(acct.secret))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var tok struct {
			AccessToken string `json:"access_token"`
			ExpiresIn   int    `json:"expires_in"`
		}
		err = json.NewDecoder(resp.Body).Decode(&tok)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || err != nil {
			t.Fatalf("POST /oauth/token as %q: %s, %v", acct.id, resp.Status, err)
		}
		if tok.ExpiresIn != 120 {
			t.Errorf("expires_in %d, want 120: two simulated hours at 60 times real speed", tok.ExpiresIn)
		}
		tokens = append(tokens, tok.AccessToken)

		req, _ = http.NewRequest(http.MethodGet, base+"/alerts?page_size=1", nil)
		req.Header.Set("x-api-key", acct.key)
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		resp, err = http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET /alerts with the token of %q: %s", acct.id, resp.Status)
		}
	}

	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the simulator did not stop within 10 s of cancellation")
	}
	logs := stderr.String()
	if !strings.Contains(logs, "method=POST path=/oauth/token status=200") {
		t.Errorf("no token request line in the log:\n%s", logs)
	}
	for _, secret := range append(tokens, "key-1", "north", "s3cr", url.QueryEscape("s3cr:t+1"), key2[1], id2[0][1], secret2[0][1]) {
		if strings.Contains(logs, secret) {
			t.Errorf("the log reveals %q", secret)
		}
	}
}

// A mistake in a command's flags or arguments is one line that names it
// and says where the flags are listed, not the whole usage.
func TestMistakesInTheCommandLineAreOneLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string // the whole line
	}{
		{[]string{"serve", "--listne", ":9000"}, "washboard serve: unknown flag --listne (see washboard serve --help)"},
		{[]string{"demo", "--speed"}, "washboard demo: --speed needs a value (see washboard demo --help)"},
		{[]string{"sim", "--devices", "lots"}, `washboard sim: invalid value "lots" for --devices: parse error (see washboard sim --help)`},
		{[]string{"sim", "extra"}, `washboard sim: unexpected argument "extra" (see washboard sim --help)`},
		{[]string{"srve"}, `washboard: unknown command "srve" (see washboard --help)`},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), tt.args, &stdout, &stderr); code != 2 {
			t.Errorf("%v: exit code %d, want 2", tt.args, code)
		}
		if got := stderr.String(); got != tt.want+"\n" {
			t.Errorf("%v: stderr\n%s\nwant the one line\n%s", tt.args, got, tt.want)
		}
		if stdout.Len() > 0 {
			t.Errorf("%v: printed %q", tt.args, stdout.String())
		}
	}
	// --help still lists the flags.
	var stderr bytes.Buffer
	if code := run(context.Background(), []string{"serve", "--help"}, io.Discard, &stderr); code != 0 || !strings.Contains(stderr.String(), "-listen string") {
		t.Errorf("serve --help: exit code %d, stderr %q; want the flags listed", code, stderr.String())
	}
}

// An address already in use says which flag changes it, and the start
// stops before anything is written.
func TestAnAddressInUseNamesItsFlag(t *testing.T) {
	t.Parallel()
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	addr := busy.Addr().String()
	data := filepath.Join(t.TempDir(), "data")
	for _, tt := range []struct {
		args []string
		flag string
	}{
		{[]string{"serve", "--data", data, "--upstream", "http://127.0.0.1:1", "--listen", addr}, "--listen"},
		{[]string{"serve", "--data", data, "--upstream", "http://127.0.0.1:1", "--listen", "127.0.0.1:0", "--metrics-listen", addr}, "--metrics-listen"},
		{[]string{"sim", "--devices", "10", "--history", "1h", "--listen", addr}, "--listen"},
	} {
		var stderr bytes.Buffer
		if code := run(context.Background(), tt.args, io.Discard, &stderr); code != 1 {
			t.Errorf("%v: exit code %d, want 1", tt.args, code)
		}
		want := fmt.Sprintf("washboard: %s %s: the address is already in use; choose another with %s\n", tt.flag, addr, tt.flag)
		if got := stderr.String(); got != want {
			t.Errorf("%v: stderr\n%s\nwant\n%s", tt.args, got, want)
		}
		if _, err := os.Stat(data); err == nil {
			t.Errorf("%v: the data directory was made before the address was found in use", tt.args)
		}
	}
}

// A URL the service's client refuses is named by its flag, once, and
// stops the start before anything is written.
func TestServeNamesTheURLFlagAtFault(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args       []string
		want, not  string
		repeatable string
	}{
		{[]string{"--upstream", "not-a-url"}, `washboard: --upstream "not-a-url": want an http or https URL` + "\n", "--token-url", "--upstream"},
		{[]string{"--upstream", "https://dms.example.com", "--token-url", "ftp://dms.example.com/token"},
			`washboard: --token-url "ftp://dms.example.com/token": want an http or https URL` + "\n", "--upstream", "--token-url"},
		{[]string{"--upstream", "https://user:s3cret@dms.example.com"}, "washboard: --upstream must not hold a user name or password; credentials go with each call\n", "s3cret", "--upstream"},
	} {
		data := filepath.Join(t.TempDir(), "data")
		var stderr bytes.Buffer
		if code := run(context.Background(), append([]string{"serve", "--data", data}, tt.args...), io.Discard, &stderr); code != 2 {
			t.Errorf("%v: exit code %d, want 2", tt.args, code)
		}
		got := stderr.String()
		if got != tt.want || strings.Contains(got, tt.not) || strings.Count(got, tt.repeatable) != 1 {
			t.Errorf("%v: stderr\n%s\nwant\n%s", tt.args, got, tt.want)
		}
		if _, err := os.Stat(data); err == nil {
			t.Errorf("%v: the data directory was made before the URL was refused", tt.args)
		}
	}
}

// demo --help says where the demo keeps its data: a temporary directory
// unless --data names one; serve's default is ./data.
func TestDemoHelpSaysWhereItsDataGo(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ cmd, want, not string }{
		{"demo", "(default: a temporary directory, removed when the demo stops)", `default "./data"`},
		{"serve", `(default "./data")`, "temporary"},
	} {
		var stderr bytes.Buffer
		run(context.Background(), []string{tt.cmd, "--help"}, io.Discard, &stderr)
		_, data, _ := strings.Cut(stderr.String(), "-data string\n")
		data, _, _ = strings.Cut(data, "\n")
		if !strings.Contains(data, tt.want) || strings.Contains(data, tt.not) {
			t.Errorf("%s --help says of --data %q; want %q", tt.cmd, data, tt.want)
		}
	}
}

// The README's architecture names the commands the binary has, and every
// one of them.
func TestReadmeNamesTheCommands(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^cmd/washboard .*the commands ((?:[a-z]+ / )*[a-z]+)$`).FindSubmatch(readme)
	if m == nil {
		t.Fatal(`the README's architecture has no line "cmd/washboard … the commands a / b / c"`)
	}
	named := strings.Split(string(m[1]), " / ")
	var listed []string // by the usage
	for _, l := range regexp.MustCompile(`(?m)^  washboard ([a-z]+)`).FindAllStringSubmatch(usage, -1) {
		listed = append(listed, l[1])
	}
	slices.Sort(named)
	slices.Sort(listed)
	if !slices.Equal(named, listed) {
		t.Errorf("the README names the commands %v; the usage lists %v", named, listed)
	}
	for _, name := range named {
		var stderr bytes.Buffer
		if code := run(context.Background(), []string{name, "--help"}, io.Discard, &stderr); code != 0 {
			t.Errorf("washboard %s --help: exit code %d, %s", name, code, stderr.String())
		}
	}
}
