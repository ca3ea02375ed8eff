package notify

import (
	"regexp"
	"strconv"
	"strings"

	"washboard/internal/i18n"
)

// A delivery log's note and the reason in a channel test's result are
// written in English when they happen (the log of the server and the
// stored log keep them so). NoteIn says the fixed words of them in a
// reader's language when a page shows them: the parts it knows (why an
// attempt failed, what a receiver answered, why a notification is held)
// in l's words, with their hosts, statuses and times as written; a part
// it does not know stays as it is.

// The frames around a reason: which attempt failed, or that the
// notifier gave up.
var (
	noteAttempt  = regexp.MustCompile(`^attempt (\d+) failed: (.+)$`)
	noteGaveUpN  = regexp.MustCompile(`^failed: given up after (\d+) attempts over a day; the last: (.+)$`)
	noteGaveUp   = regexp.MustCompile(`^failed: given up after a day; (.+)$`)
	noteFailed   = regexp.MustCompile(`^failed: (.+)$`)
	noteWaiting  = regexp.MustCompile(`^waiting: the channel's last attempt failed \((.+)\)$`)
	notePartsSep = "; "
)

// The parts of a reason, each one of the notes' fixed sentences.
var (
	notePushed      = regexp.MustCompile(`^pushed to (\d+) of (\d+) devices?$`)
	noteGone        = regexp.MustCompile(`^(\d+) devices? (?:was|were) gone, and removed$`)
	noteAnswered    = regexp.MustCompile(`^(\S+) answered (\d{3}[^:;]*)$`)
	noteWait        = regexp.MustCompile(`^it asked to wait (\S+)(?: before trying again)?$`)
	noteRefusedMsg  = regexp.MustCompile(`^(\S+) refused the message: (\d{3}.*)$`)
	noteRefusedPush = regexp.MustCompile(`^(\S+) refused the push: (\d{3}.*)$`)
	noteNoAnswer    = regexp.MustCompile(`^(\S+) did not answer within (\S+)$`)
	noteUnreachable = regexp.MustCompile(`^could not reach (\S+)$`)
	noteUnreachWhy  = regexp.MustCompile(`^could not reach (\S+): (.+)$`)
	noteNoHost      = regexp.MustCompile(`^the host name (\S+) does not exist \(DNS\)$`)
	noteCutOff      = regexp.MustCompile(`^the attempt was cut off before (\S+) answered: (its deadline passed|it was cancelled)$`)
	notePushCut     = regexp.MustCompile(`^the push to (\S+) was cut off$`)
	noteRate        = regexp.MustCompile(`^held by the channel's limit of (\d+) a minute$`)
	noteQuiet       = regexp.MustCompile(`^held by the rule's quiet hours until (.+)$`)
	noteCollecting  = regexp.MustCompile(`^collecting until (.+)$`)
	noteWaitClaim   = regexp.MustCompile(`^waiting until (.+) to see whether someone is on the alert$`)
	noteWaitOnline  = regexp.MustCompile(`^waiting until (.+) to see whether the device is back online$`)
	noteWaitResolve = regexp.MustCompile(`^waiting until (.+) to see whether the alert is resolved$`)
	noteRedirect    = regexp.MustCompile(`^(\S+) answered (\d{3}[^,]*), a redirect, and redirects are not followed: set the webhook's URL to the receiver's final address$`)
	noteNoHTTPS     = regexp.MustCompile(`^(\S+) does not speak HTTPS$`)
	noteCheckScheme = regexp.MustCompile(`^check the webhook URL's scheme and port$`)
	noteNotHTTP     = regexp.MustCompile(`^(\S+) did not give an HTTP answer Washboard could read$`)
	noteNoDevice    = regexp.MustCompile(`^the person to push to has subscribed no device to pushes \(on their page, Me\)$`)
	noteNoDevices   = regexp.MustCompile(`^none of the (\d+) people to push to has subscribed a device to pushes \(on their page, Me\)$`)
)

// NoteIn says note in l's language, as far as it is one of the notes'
// fixed sentences (see above); English notes read as they are.
func NoteIn(l *i18n.Localizer, note string) string {
	if l.Lang() == "en" || note == "" {
		return note
	}
	if m := noteAttempt.FindStringSubmatch(note); m != nil {
		return l.T("delivery.attempt_failed", "attempt", m[1], "why", noteParts(l, m[2]))
	}
	if m := noteGaveUpN.FindStringSubmatch(note); m != nil {
		return l.T("delivery.gave_up_attempts", "attempts", m[1], "why", noteParts(l, m[2]))
	}
	if m := noteGaveUp.FindStringSubmatch(note); m != nil {
		return l.T("delivery.gave_up", "why", noteParts(l, m[1]))
	}
	if m := noteFailed.FindStringSubmatch(note); m != nil {
		return l.T("delivery.failed", "why", noteParts(l, m[1]))
	}
	if m := noteWaiting.FindStringSubmatch(note); m != nil {
		return l.T("delivery.paused", "why", noteParts(l, m[1]))
	}
	return noteParts(l, note)
}

// noteParts says each part of a reason ("pushed to 1 of 2 devices; 1
// device was gone, and removed") in l's language.
func noteParts(l *i18n.Localizer, reason string) string {
	parts := strings.Split(reason, notePartsSep)
	said := notePart(l, parts[0])
	for _, p := range parts[1:] {
		said = l.T("delivery.and", "first", said, "then", notePart(l, p))
	}
	return said
}

// noteCount reads a count a note wrote; 0 when it is not one.
func noteCount(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// notePart says one fixed sentence of a note in l's language, or p as it
// is.
func notePart(l *i18n.Localizer, p string) string {
	match := func(re *regexp.Regexp) []string { return re.FindStringSubmatch(p) }
	if m := match(notePushed); m != nil {
		return l.N("delivery.pushed", noteCount(m[2]), "delivered", m[1])
	}
	if m := match(noteGone); m != nil {
		return l.N("delivery.gone", noteCount(m[1]))
	}
	if m := match(noteAnswered); m != nil {
		return l.T("delivery.answered", "host", m[1], "status", m[2])
	}
	if m := match(noteWait); m != nil {
		return l.T("delivery.asked_to_wait", "wait", m[1])
	}
	if m := match(noteRefusedMsg); m != nil {
		return l.T("delivery.refused_message", "host", m[1], "status", m[2])
	}
	if m := match(noteRefusedPush); m != nil {
		return l.T("delivery.refused_push", "host", m[1], "status", m[2])
	}
	if m := match(noteNoAnswer); m != nil {
		return l.T("delivery.no_answer_within", "host", m[1], "duration", m[2])
	}
	if m := match(noteUnreachable); m != nil {
		return l.T("delivery.unreachable", "host", m[1])
	}
	if m := match(noteUnreachWhy); m != nil {
		return l.T("delivery.unreachable_because", "host", m[1], "why", m[2])
	}
	if m := match(noteNoHost); m != nil {
		return l.T("delivery.no_such_host", "host", m[1])
	}
	if m := match(noteCutOff); m != nil {
		if m[2] == "its deadline passed" {
			return l.T("delivery.cut_off_deadline", "host", m[1])
		}
		return l.T("delivery.cut_off_cancelled", "host", m[1])
	}
	if m := match(notePushCut); m != nil {
		return l.T("delivery.push_cut_off", "host", m[1])
	}
	if m := match(noteRate); m != nil {
		return l.N("delivery.rate_limit", noteCount(m[1]))
	}
	if m := match(noteQuiet); m != nil {
		return l.T("delivery.quiet_until", "time", m[1])
	}
	if m := match(noteCollecting); m != nil {
		return l.T("delivery.collecting_until", "time", m[1])
	}
	if m := match(noteWaitClaim); m != nil {
		return l.T("delivery.waiting_claim", "time", m[1])
	}
	if m := match(noteWaitOnline); m != nil {
		return l.T("delivery.waiting_online", "time", m[1])
	}
	if m := match(noteWaitResolve); m != nil {
		return l.T("delivery.waiting_resolved", "time", m[1])
	}
	if m := match(noteRedirect); m != nil {
		return l.T("delivery.redirect", "host", m[1], "status", m[2])
	}
	if m := match(noteNoHTTPS); m != nil {
		return l.T("delivery.no_https", "host", m[1])
	}
	if match(noteCheckScheme) != nil {
		return l.T("delivery.check_scheme")
	}
	if m := match(noteNotHTTP); m != nil {
		return l.T("delivery.not_http", "host", m[1])
	}
	if match(noteNoDevice) != nil {
		return l.T("delivery.no_device")
	}
	if m := match(noteNoDevices); m != nil {
		return l.N("delivery.no_devices", noteCount(m[1]))
	}
	return p
}
