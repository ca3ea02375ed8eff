package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A notifications file that does not read, or names a channel it lacks,
// and mail settings that cannot work, stop the server at start, saying
// where and why, without repeating a secret.
func TestServeRefusesBadNotificationSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	broken := file("broken.json", "{\"accounts\": [\n  {\"account_id\": \"acme\",,}]}")
	unknown := file("unknown.json", `{"accounts": [{"account_id": "acme",
  "channels": [{"name": "ops", "webhook": {"url": "https://hooks.example.com/x", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}}],
  "rules": [{"name": "Out", "when": "product.out", "channels": ["opps"]}]}]}`)
	mail := file("mail.json", `{"accounts": [{"account_id": "acme",
  "channels": [{"name": "desk", "email": {"to": ["facilities@example.com"]}}],
  "rules": [{"name": "Out", "when": "product.out", "channels": ["desk"]}]}]}`)
	serve := []string{"serve", "--listen", "127.0.0.1:0", "--data", filepath.Join(dir, "data"), "--upstream", "http://127.0.0.1:1"}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--notifications", broken}, "broken.json: line 2, column"},
		{[]string{"--notifications", unknown}, `line 3`},
		{[]string{"--notifications", unknown}, `"opps"`},
		{[]string{"--notifications", filepath.Join(dir, "missing.json")}, "missing.json: open"},
		{[]string{"--notifications", mail}, `channel "desk" sends e-mail, and no mail server is set: start Washboard with --smtp-url and --mail-from`},
		{[]string{"--smtp-url", "smtp://washboard:s3cret-pass@mail.example.com", "--mail-from", "not an address"}, "--smtp-url and --mail-from: the sender's address (from) \"not an address\" is not an e-mail address"},
		{[]string{"--smtp-url", "smtp://washboard:s3cret-pass@mail.example.com"}, "the sender's address (from) is missing"},
		{[]string{"--smtp-url", "ftp://washboard:s3cret-pass@mail.example.com"}, "--smtp-url and --mail-from: the SMTP URL's scheme \"ftp\" is not smtp or smtps"},
		{[]string{"--smtp-url", "smtp://washboard:s3cret-pass@mail.example.com:99999?from=a@example.com"}, "port"},
		{[]string{"--smtp-url", "smtp://washboard:s3cret-pass@mail.example.com?starttls=0&from=a@example.com"}, "unencrypted"},
		{[]string{"--mail-from", "alerts@example.com"}, "--mail-from needs --smtp-url"},
		{[]string{"--public-url", "washboard.example.com"}, "--public-url must be an http or https URL"},
		{[]string{"--notification-rate", "0"}, "--notification-rate must be at least 1 a minute"},
	} {
		var stderr bytes.Buffer
		code := run(context.Background(), append(serve, c.args...), io.Discard, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want it to say %q", c.args, code, stderr.String(), c.want)
		}
		for _, secret := range []string{"s3cret-pass", "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "hooks.example.com/x"} {
			if strings.Contains(stderr.String(), secret) {
				t.Errorf("%v: stderr repeats a secret: %q", c.args, stderr.String())
			}
		}
	}
}

// Where private targets are allowed (--allow-private-webhooks), a webhook
// still cannot reach the dashboard: neither its own port nor that of
// --metrics-listen, written as 127.0.0.1 or as 0.0.0.0 (which reaches this
// machine). "Send a test" says so.
func TestWebhooksDoNotReachTheDashboardsListeners(t *testing.T) {
	t.Parallel()
	up := newUpstreamSim(t)
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	metrics := free.Addr().String()
	free.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	base, done, stderr := startServe(t, ctx, "--upstream", up.srv.URL, "--allow-private-webhooks", "--metrics-listen", metrics)
	c := signIn(t, base, up.cred)
	_, dashPort, _ := net.SplitHostPort(strings.TrimPrefix(base, "http://"))
	_, metricsPort, _ := net.SplitHostPort(metrics)
	for name, target := range map[string]string{
		"dashboard":        "http://0.0.0.0:" + dashPort + "/signin",
		"metrics":          "http://" + metrics + "/metrics",
		"metrics-anywhere": "http://0.0.0.0:" + metricsPort + "/metrics",
	} {
		token := csrfField.FindStringSubmatch(get(t, c, base+"/notifications"))
		if token == nil {
			t.Fatal("no CSRF token on /notifications")
		}
		form := url.Values{"csrf_token": {token[1]}, "name": {name}, "kind": {"webhook"}, "url": {target}, "format": {"json"}}
		if resp, err := c.PostForm(base+"/notifications/channels", form); err != nil {
			t.Fatal(err)
		} else {
			resp.Body.Close()
		}
		req, _ := http.NewRequest(http.MethodPost, base+"/notifications/channels/"+name+"/test", strings.NewReader(url.Values{"csrf_token": {token[1]}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("HX-Request", "true")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		said, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(said), "is Washboard&#39;s own address: a webhook must not call the dashboard itself") {
			t.Errorf("a test of a webhook to %s says:\n%s", target, said)
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit code %d; stderr:\n%s", code, stderr.String())
	}
}
