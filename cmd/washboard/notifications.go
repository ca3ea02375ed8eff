package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"os"

	"washboard/internal/clock"
	"washboard/internal/notifier"
	"washboard/internal/notify"
	"washboard/internal/rules"
)

// notifierConfig reads what --notifications, --smtp-url, --mail-from and
// --allow-private-webhooks say; the caller adds the addresses. A file
// that does not read stops the server with the line and the reason.
func notifierConfig(cfg serveConfig) (notifier.Config, error) {
	var nc notifier.Config
	if cfg.Notifications != "" {
		file, err := readNotifications(cfg.Notifications)
		if err != nil {
			return nc, usageError{fmt.Sprintf("--notifications %s: %v", cfg.Notifications, err)}
		}
		nc.File = file
	}
	switch {
	case cfg.MailFrom != "" && cfg.SMTPURL == "":
		return nc, usageError{"--mail-from needs --smtp-url, the mail server to send through"}
	case cfg.SMTPURL != "":
		set, err := parseSMTPDefault(cfg.SMTPURL, cfg.MailFrom)
		if err != nil {
			return nc, usageError{fmt.Sprintf("--smtp-url and --mail-from: %v", err)}
		}
		nc.SMTP = &set
	}
	nc.Guard.AllowPrivate = cfg.AllowPrivateWebhooks
	nc.RatePerMinute = cfg.NotificationRate
	return nc, nil
}

// readNotifications reads and checks a notifications file.
func readNotifications(name string) (rules.File, error) {
	f, err := os.Open(name)
	if err != nil {
		return rules.File{}, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, rules.MaxFileSize+1))
	if err != nil {
		return rules.File{}, err
	}
	return rules.ParseFile(data)
}

// parseSMTPDefault reads --smtp-url, its sender replaced by --mail-from
// when given. The recipients are each channel's: the URL need not name
// any, and those it names are not used.
func parseSMTPDefault(raw, from string) (notify.SMTPSettings, error) {
	u, err := url.Parse(raw)
	if err != nil {
		_, err = notify.ParseSMTPURL(raw) // says what is wrong without the password
		return notify.SMTPSettings{}, err
	}
	q := u.Query()
	if from != "" {
		q.Set("from", from)
	}
	q.Set("to", "recipient@example.com") // stands in for each channel's
	u.RawQuery = q.Encode()
	set, err := notify.ParseSMTPURL(u.String())
	set.To = nil
	return set, err
}

// letters sends the web's letters (invitations) through the mail server
// of --smtp-url and --mail-from; nil when there is none.
func letters(set *notify.SMTPSettings, c clock.Clock) func(ctx context.Context, to, subject, text string) error {
	if set == nil {
		return nil
	}
	server := *set
	return func(ctx context.Context, to, subject, text string) error {
		return notify.SendLetter(ctx, server, to, subject, text, c.Now())
	}
}
