package notifier

import (
	"fmt"

	"washboard/internal/notify"
	"washboard/internal/rules"
)

// cachedChannel is a channel made from its settings, kept while they stay
// the same so that a webhook's connections are reused.
type cachedChannel struct {
	settings string // everything the channel was made from, secrets too; never shown
	ch       notify.Channel
}

// channel returns the account's channel of that name, ready to send.
func (n *Notifier) channel(a rules.Account, name string) (notify.Channel, error) {
	c, ok := a.Channel(name)
	if !ok {
		return nil, fmt.Errorf("the channel %q no longer exists", name)
	}
	settings := fingerprint(c)
	key := channelKey(a.AccountID, name)
	n.mu.Lock()
	cached, ok := n.channels[key]
	n.mu.Unlock()
	if ok && cached.settings == settings {
		return cached.ch, nil
	}
	ch, err := n.makeChannel(c)
	if err != nil {
		return nil, fmt.Errorf("the channel %q cannot send: %w", name, err)
	}
	n.mu.Lock()
	n.channels[key] = cachedChannel{settings, ch}
	n.mu.Unlock()
	return ch, nil
}

func (n *Notifier) makeChannel(c rules.Channel) (notify.Channel, error) {
	switch {
	case c.Webhook != nil:
		return notify.NewWebhook(notify.WebhookConfig{
			URL: c.Webhook.URL, Format: c.Webhook.Format, Secret: c.Webhook.Secret,
			Guard: n.cfg.Guard, Timeout: n.cfg.Timeout, Clock: n.clk, Link: n.cfg.Link,
		})
	case c.Email != nil:
		// The channel's own mail server, typed in on the page, is held to
		// the guard; the operator's (--smtp-url) is trusted.
		var (
			set     notify.SMTPSettings
			trusted bool
		)
		switch {
		case c.Email.SMTP != nil:
			set = *c.Email.SMTP
		case n.cfg.SMTP != nil:
			set, trusted = *n.cfg.SMTP, true
		default:
			return nil, fmt.Errorf("no mail server is set: give the channel one, or start Washboard with --smtp-url")
		}
		set.To = c.Email.To
		set.Timeout = n.cfg.Timeout
		if n.cfg.SMTPTLS != nil {
			set.TLSConfig = n.cfg.SMTPTLS
		}
		return notify.NewEmail(notify.EmailConfig{SMTP: set, Guard: n.cfg.Guard, Trusted: trusted, Clock: n.clk, Link: n.cfg.Link})
	}
	return nil, fmt.Errorf("it has neither an e-mail address nor a webhook")
}

// fingerprint is everything a channel is made from.
func fingerprint(c rules.Channel) string {
	s := c.Name
	if w := c.Webhook; w != nil {
		s += "\x00webhook\x00" + w.URL + "\x00" + string(w.Format) + "\x00"
		if !w.Secret.IsZero() {
			s += w.Secret.Text()
		}
	}
	if e := c.Email; e != nil {
		s += "\x00email"
		for _, to := range e.To {
			s += "\x00" + to
		}
		if m := e.SMTP; m != nil {
			s += fmt.Sprintf("\x00%s\x00%d\x00%s\x00%s\x00%s\x00%s", m.Host, m.Port, m.TLS, m.User, m.Password, m.From)
		}
	}
	return s
}
