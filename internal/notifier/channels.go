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
	settings, keep := fingerprint(c)
	key := channelKey(a.AccountID, name)
	n.mu.Lock()
	cached, ok := n.channels[key]
	n.mu.Unlock()
	if ok && keep && cached.settings == settings {
		return cached.ch, nil
	}
	ch, err := n.makeChannel(a.AccountID, c)
	if err != nil {
		return nil, err
	}
	n.mu.Lock()
	n.channels[key] = cachedChannel{settings, ch}
	n.mu.Unlock()
	return ch, nil
}

func (n *Notifier) makeChannel(account string, c rules.Channel) (notify.Channel, error) {
	if c.Settings == nil {
		return nil, fmt.Errorf("the channel %q has nowhere to send", c.Name)
	}
	env := n.env()
	env.Account, env.Lang = account, c.Language
	if err := c.Settings.Ready(env); err != nil {
		return nil, fmt.Errorf("the channel %q %w", c.Name, err)
	}
	ch, err := c.Settings.Open(env)
	if err != nil {
		return nil, fmt.Errorf("the channel %q cannot send: %w", c.Name, err)
	}
	return ch, nil
}

// env is what the notifier gives the channels it opens.
func (n *Notifier) env() notify.Env {
	return notify.Env{Guard: n.cfg.Guard, Timeout: n.cfg.Timeout, Clock: n.clk, Link: n.cfg.Link, SMTP: n.cfg.SMTP, SMTPTLS: n.cfg.SMTPTLS, Pusher: n.cfg.Pusher}
}

// fingerprint is everything a channel is made from: its settings as they
// are kept. It is false when they cannot be written, and the channel is
// made again.
func fingerprint(c rules.Channel) (string, bool) {
	if c.Settings == nil {
		return "", false
	}
	saved, err := c.Settings.Save()
	if err != nil {
		return "", false
	}
	return c.Name + "\x00" + c.Language + "\x00" + c.Settings.Kind() + "\x00" + string(saved), true
}
