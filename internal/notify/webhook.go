package notify

import (
	"bytes"
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"washboard/internal/clock"
	"washboard/internal/i18n"
	"washboard/internal/version"
	"washboard/internal/webhook"
)

// DefaultTimeout bounds an attempt to send, from connecting to the
// receiver's answer.
const DefaultTimeout = 10 * time.Second

// MaxBodySize bounds the body of a webhook request: a digest of many items
// could grow past what a receiver takes (Slack and Teams take far less).
const MaxBodySize = 512 << 10

// WebhookConfig is a webhook channel's settings.
type WebhookConfig struct {
	URL    string         // where to POST, an absolute http or https URL
	Format Format         // the body: FormatJSON when empty
	Secret webhook.Secret // signs each request when not zero
	Guard  Guard          // which addresses the URL may reach
	// Timeout bounds each attempt; DefaultTimeout when zero.
	Timeout time.Duration
	Clock   clock.Clock // the time of webhook-timestamp; clock.Real when nil
	// Link is the dashboard's address, the link of a test notification.
	Link string
	// Lang is the language of the channel's test notification; English
	// when empty.
	Lang string
}

// Webhook sends notifications as HTTP POST requests.
//
// Every request carries the Standard Webhooks headers: webhook-id, the
// notification's idempotency key (the same on every attempt, so that the
// receiver can drop a repeat), webhook-timestamp, and webhook-signature
// when a secret is set. Redirects are not followed: a redirect is a
// permanent failure. A failure says the status of the answer, never its
// body or where a redirect pointed (see Error).
type Webhook struct {
	url    *url.URL
	host   string // the URL's host, which errors name instead of the URL
	format Format
	secret webhook.Secret
	clock  clock.Clock
	link   string
	lang   string
	client *http.Client
}

// NewWebhook checks the settings and returns the channel. Its errors say
// which setting is at fault, and never quote the URL's path or query,
// which often hold a secret.
func NewWebhook(cfg WebhookConfig) (*Webhook, error) {
	u, err := url.Parse(cfg.URL)
	switch {
	case cfg.URL == "":
		return nil, errors.New("the webhook has no URL")
	case err != nil:
		return nil, errors.New("the webhook URL is not a URL")
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, errors.New("the webhook URL must begin with https:// (or http://)")
	case u.Host == "" || u.Hostname() == "":
		return nil, errors.New("the webhook URL has no host")
	case u.User != nil:
		return nil, errors.New("the webhook URL must not hold a user name or password")
	case u.Fragment != "":
		return nil, errors.New("the webhook URL must not have a #fragment")
	}
	if _, err := strconv.ParseUint(cmp.Or(u.Port(), "1"), 10, 16); err != nil {
		return nil, fmt.Errorf("the webhook URL's port %q is not a port number", u.Port())
	}
	if cfg.Format == "" {
		cfg.Format = FormatJSON
	}
	if _, err := ParseFormat(string(cfg.Format)); err != nil {
		return nil, err
	}
	if err := cfg.Guard.Check(u); err != nil {
		return nil, webhookTarget.refusal(u.Hostname(), err)
	}
	timeout := cmp.Or(cfg.Timeout, DefaultTimeout)
	dialer := cfg.Guard.dialer(timeout)
	client := &http.Client{
		Timeout: timeout,
		Transport: &http.Transport{
			Proxy:                  nil, // the guard must see the receiver's address, not a proxy's
			DialContext:            dialer.DialContext,
			TLSHandshakeTimeout:    timeout,
			DisableKeepAlives:      true, // notifications are rare; no connection outlives its request
			ForceAttemptHTTP2:      true,
			MaxResponseHeaderBytes: 64 << 10,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Webhook{
		url: u, host: u.Host, format: cfg.Format, secret: cfg.Secret, clock: cmp.Or[clock.Clock](cfg.Clock, clock.Real{}),
		link: cfg.Link, lang: cfg.Lang, client: client,
	}, nil
}

// Send makes one attempt to POST n to the webhook, in the channel's
// format. A nil error means the receiver answered 2xx.
func (w *Webhook) Send(ctx context.Context, n Notification) error {
	_, err := w.send(ctx, n)
	return err
}

// Test sends a test notification and says what happened, in the
// language of ctx's localizer (the page's that asked for it).
func (w *Webhook) Test(ctx context.Context) (string, error) {
	l := i18n.From(ctx)
	test := NewTest(w.clock.Now(), w.link)
	test.Lang = w.lang
	status, err := w.send(ctx, test)
	if err != nil {
		return l.T("notif.test_not_delivered", "reason", NoteIn(l, err.Error())), err
	}
	return l.T("notif.test_accepted", "host", w.host, "format", w.format.Label(), "status", status), nil
}

func (w *Webhook) send(ctx context.Context, n Notification) (string, error) {
	if err := n.Validate(); err != nil {
		return "", permanent(0, err, err.Error())
	}
	if n.At.IsZero() {
		n.At = w.clock.Now()
	}
	body, err := w.format.Body(n)
	if err != nil {
		return "", permanent(0, err, "the message could not be written: "+err.Error())
	}
	if len(body) > MaxBodySize {
		return "", permanent(0, nil, fmt.Sprintf("the message is %d KB, more than the %d KB a webhook request may carry", (len(body)+1023)>>10, MaxBodySize>>10))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url.String(), bytes.NewReader(body))
	if err != nil {
		return "", permanent(0, nil, "the request could not be made")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Washboard/"+version.String())
	now := w.clock.Now()
	if w.secret.IsZero() {
		req.Header.Set(webhook.HeaderID, n.ID)
		req.Header.Set(webhook.HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	} else {
		for k, v := range webhook.Sign(w.secret, n.ID, now, body) {
			req.Header[k] = v
		}
	}

	resp, err := w.client.Do(req)
	if err != nil {
		return "", w.failure(ctx, err)
	}
	resp.Body.Close() // unread: what matters is the status, and no connection is kept
	return w.outcome(resp)
}

// failure classifies an error without an answer, in words: not in the
// text of the error, which may quote what answered (an answer that is not
// HTTP, a certificate's names).
func (w *Webhook) failure(ctx context.Context, err error) *Error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text holds the URL
	}
	var (
		dnsErr *net.DNSError
		netErr net.Error
		record tls.RecordHeaderError
	)
	switch {
	case errors.Is(err, ErrForbiddenTarget):
		return webhookTarget.refusal(w.url.Hostname(), err)
	case ctx.Err() != nil:
		return transient(0, ctx.Err(), "the attempt was cut off before "+w.host+" answered: "+ctxReason(ctx))
	case errors.As(err, &dnsErr) && dnsErr.IsNotFound:
		return permanent(0, err, "the host name "+w.url.Hostname()+" does not exist (DNS)")
	case errors.As(err, &dnsErr):
		return transient(0, err, "the host name "+w.url.Hostname()+" could not be resolved: "+dnsErr.Err)
	case errors.As(err, &record), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		return permanent(0, err, w.host+" does not speak HTTPS; check the webhook URL's scheme and port")
	case isCertificateError(err):
		return permanent(0, err, w.host+"'s certificate is not valid: "+certificateWords(err))
	case errors.As(err, &netErr) && netErr.Timeout():
		return transient(0, err, fmt.Sprintf("%s did not answer within %s", w.host, w.client.Timeout))
	}
	if words := connectionWords(err); words != "" {
		return transient(0, err, "could not reach "+w.host+": "+words)
	}
	return transient(0, err, w.host+" did not give an HTTP answer Washboard could read")
}

// outcome classifies the receiver's answer by its status: nil for 2xx,
// what the status says otherwise. It returns the status in words on
// success.
func (w *Webhook) outcome(resp *http.Response) (string, error) {
	code := resp.StatusCode
	status := strings.TrimSpace(strconv.Itoa(code) + " " + http.StatusText(code))
	switch {
	case code >= 200 && code < 300:
		return "HTTP " + status, nil
	case code >= 300 && code < 400:
		return "", permanent(code, nil, fmt.Sprintf("%s answered %s, a redirect, and redirects are not followed: "+
			"set the webhook's URL to the receiver's final address", w.host, status))
	case code == http.StatusTooManyRequests, code == http.StatusRequestTimeout, code >= 500:
		e := transient(code, nil, fmt.Sprintf("%s answered %s", w.host, status))
		if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
			e.RetryAfter = retryAfter(resp.Header.Get("Retry-After"), w.clock.Now())
			if e.RetryAfter > 0 {
				e.Msg += fmt.Sprintf("; it asked to wait %s before trying again", e.RetryAfter)
			}
		}
		return "", e
	}
	return "", permanent(code, nil, fmt.Sprintf("%s refused the message: %s", w.host, status))
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date; 0 when
// absent, past or unreadable.
func retryAfter(h string, now time.Time) time.Duration {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(h, 10, 64); err == nil {
		return time.Duration(max(min(secs, int64(24*time.Hour/time.Second)), 0)) * time.Second
	}
	if at, err := http.ParseTime(h); err == nil && at.After(now) {
		return min(at.Sub(now).Round(time.Second), 24*time.Hour)
	}
	return 0
}

func ctxReason(ctx context.Context) string {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return "its deadline passed"
	}
	return "it was cancelled"
}
