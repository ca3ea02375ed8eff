package push

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	webpush "github.com/SherClockHolmes/webpush-go"

	"washboard/internal/domain"
	"washboard/internal/i18n"
	"washboard/internal/notify"
	"washboard/internal/people"
	"washboard/internal/store"
)

// Message is what a push carries to the device, encrypted for it, and
// what the service worker (static/js/sw.js) shows.
type Message struct {
	// Title is the building, or "Washboard".
	Title string `json:"title"`
	// Body is what and where in one line: "Product out: Stall 2, Men's
	// Restroom 3.12; bring 2 tissue rolls".
	Body string `json:"body"`
	// URL is the page a tap opens: the location's.
	URL string `json:"url,omitempty"`
	// Tag is the notification's key: a push sent again (after a failure
	// elsewhere) replaces the one shown rather than showing it twice.
	Tag string `json:"tag"`
	// Action is the "I'm on it" button of a push about an alert; nil for
	// none.
	Action *Action `json:"action,omitempty"`
}

// Action is a push's "I'm on it", for the person it is pushed to.
type Action struct {
	// Path is where the service worker posts it: the alert's "I'm on it"
	// of "My work".
	Path string `json:"path"`
	// Token is the single-use action token (ActionToken), Key its
	// action's idempotency key.
	Token string `json:"token"`
	Key   string `json:"key"`
	// Title is the button's words, NotSent what a refusal says ("Not
	// sent: {reason}"), in the person's language.
	Title   string `json:"title"`
	NotSent string `json:"notSent"`
}

// maxBody bounds a push's line, in characters: a phone shows less.
const maxBody = 240

// MessageOf is the push of a notification, in its language (n.Lang), its
// links under link.
func MessageOf(n notify.Notification, link string) Message {
	m := Message{Title: "Washboard", Body: n.PushLine(), URL: n.URL, Tag: n.ID}
	if b := n.Where.Building.Name; b != "" && !n.IsDigest() {
		m.Title = b
	}
	if utf8.RuneCountInString(m.Body) > maxBody {
		m.Body = string([]rune(m.Body)[:maxBody-1]) + "…"
	}
	return m
}

// withAction is the push of m to a person, with their "I'm on it" when
// it is about an alert of the account, in the push's language (n.Lang).
func (s *Service) withAction(m Message, account, person string, n notify.Notification) Message {
	if n.Alert == nil || account == "" || n.IsDigest() {
		return m
	}
	loc := i18n.For(n.Lang)
	token := s.ActionToken(person, account, n.Alert.ID)
	m.Action = &Action{Path: "/my/alerts/" + url.PathEscape(n.Alert.ID) + "/claim", Token: token, Key: ActionKey(token),
		Title: loc.T("pushmsg.claim_action"), NotSent: loc.T("pushmsg.not_sent", "reason", "{reason}")}
	return m
}

// Push sends n to every device of the people of the account that to
// names (notify.Pusher).
func (s *Service) Push(ctx context.Context, account string, to notify.PushTarget, n notify.Notification) (string, error) {
	if err := n.Validate(); err != nil {
		return "", &notify.Error{Permanent: true, Msg: err.Error(), Err: err}
	}
	people, err := s.recipients(ctx, account, to, n)
	if err != nil {
		return "", &notify.Error{Msg: "the people to push to could not be read", Err: err}
	}
	if len(people) == 0 {
		return "", &notify.Error{Permanent: true, Msg: "nobody to push to: " + nobody(to, n)}
	}
	return s.pushTo(ctx, account, people, n)
}

// Test pushes a test notification to a person's devices and says what
// happened, in the language of ctx's localizer (the page's).
func (s *Service) Test(ctx context.Context, person string) (string, error) {
	said, err := s.pushTo(ctx, "", []string{person}, notify.NewTest(s.clk.Now(), s.cfg.Link+"/me"))
	if err != nil {
		return i18n.From(ctx).T("push.test_not_pushed", "reason", notify.NoteIn(i18n.From(ctx), err.Error())), err
	}
	return i18n.From(ctx).T("push.test_pushed", "result", notify.NoteIn(i18n.From(ctx), said)), nil
}

// pushTo pushes n to every device of the people of the account ("" for
// a test), each person's push with their own action.
func (s *Service) pushTo(ctx context.Context, account string, people []string, n notify.Notification) (string, error) {
	subs, err := s.st.PushSubscriptions(ctx, people)
	if err != nil {
		return "", &notify.Error{Msg: "the devices to push to could not be read", Err: err}
	}
	if len(subs) == 0 {
		return "", &notify.Error{Permanent: true, Msg: noDevice(len(people)) + " to pushes (on their page, Me)"}
	}
	// Each person reads the push in their own language (people.language),
	// the channel's when they chose none.
	bodies := map[string][]byte{}
	var out outcome
	for _, k := range subs {
		if ctx.Err() != nil {
			return "", &notify.Error{Msg: "the pushes were cut off", Err: ctx.Err()}
		}
		body, ok := bodies[k.PersonID]
		if !ok {
			in := n
			in.Lang = cmp.Or(k.Language, n.Lang) // else the channel's
			if body, err = json.Marshal(s.withAction(MessageOf(in, s.cfg.Link), account, k.PersonID, in)); err != nil {
				return "", &notify.Error{Permanent: true, Msg: "the push could not be written", Err: err}
			}
			bodies[k.PersonID] = body
		}
		out.add(s.pushOne(ctx, k, n.ID, body))
	}
	return out.result(len(subs))
}

// result is one device's push.
type result struct {
	gone bool          // the push service said the device is gone; it was removed
	err  *notify.Error // nil when the push service took the push
}

// pushOne pushes body to one device, and removes it when its push
// service says it is gone.
func (s *Service) pushOne(ctx context.Context, k store.PushSubscription, key string, body []byte) result {
	sub, err := s.open(k)
	if err != nil {
		return result{err: &notify.Error{Permanent: true, Msg: "a device's subscription does not open with this server's key", Err: err}}
	}
	topic := sha256.Sum256([]byte(key))
	resp, err := webpush.SendNotificationWithContext(ctx, body,
		&webpush.Subscription{Endpoint: sub.Endpoint, Keys: webpush.Keys{Auth: sub.Auth, P256dh: sub.P256dh}},
		&webpush.Options{
			HTTPClient:      s.client,
			Subscriber:      s.subscriber(),
			VAPIDPublicKey:  s.keys.public,
			VAPIDPrivateKey: s.keys.private,
			TTL:             int(s.cfg.TTL / time.Second),
			Urgency:         webpush.UrgencyHigh,
			// A push sent again replaces one the service still holds.
			Topic: base64.RawURLEncoding.EncodeToString(topic[:24]),
		})
	host := hostOf(sub.Endpoint)
	if err != nil {
		return result{err: s.failure(ctx, host, err)}
	}
	resp.Body.Close() // unread: the status says it all
	code := resp.StatusCode
	status := strings.TrimSpace(strconv.Itoa(code) + " " + http.StatusText(code))
	switch {
	case code >= 200 && code < 300:
		return result{}
	case code == http.StatusNotFound || code == http.StatusGone:
		if err := s.st.RemovePushSubscription(ctx, k.PersonID, k.ID); err != nil && !errors.Is(err, domain.ErrNotFound) {
			s.log.Warn("push: removing a device that is gone", "person", k.PersonID, "device", k.ID, "error", err.Error())
		} else {
			s.log.Info("push: removed a device its push service says is gone", "person", k.PersonID, "device", k.ID, "service", host, "status", code)
		}
		return result{gone: true}
	case code == http.StatusTooManyRequests, code == http.StatusRequestTimeout, code >= 500:
		e := &notify.Error{Code: code, Msg: host + " answered " + status}
		if ra := retryAfter(resp.Header.Get("Retry-After")); ra > 0 {
			e.RetryAfter = ra
			e.Msg += fmt.Sprintf("; it asked to wait %s", ra)
		}
		return result{err: e}
	}
	return result{err: &notify.Error{Permanent: true, Code: code, Msg: host + " refused the push: " + status}}
}

// failure says why a push got no answer, in words of Washboard's own:
// the error's text holds the device's address.
func (s *Service) failure(ctx context.Context, host string, err error) *notify.Error {
	var netErr net.Error
	switch {
	case errors.Is(err, notify.ErrForbiddenTarget):
		return &notify.Error{Permanent: true, Msg: "the push service " + host + " is at an address Washboard does not push to", Err: notify.ErrForbiddenTarget}
	case ctx.Err() != nil:
		return &notify.Error{Msg: "the push to " + host + " was cut off", Err: ctx.Err()}
	case errors.As(err, &netErr) && netErr.Timeout():
		return &notify.Error{Msg: fmt.Sprintf("%s did not answer within %s", host, s.cfg.Timeout)}
	}
	var ue *url.Error
	if !errors.As(err, &ue) {
		return &notify.Error{Permanent: true, Msg: "the push to " + host + " could not be encrypted for the device"}
	}
	return &notify.Error{Msg: "could not reach " + host}
}

// outcome adds up the pushes to each device.
type outcome struct {
	delivered, gone int
	transient       *notify.Error // the first
	permanent       *notify.Error // the first
	retryAfter      time.Duration // the longest asked for
}

func (o *outcome) add(r result) {
	switch {
	case r.gone:
		o.gone++
	case r.err == nil:
		o.delivered++
	case r.err.Permanent:
		if o.permanent == nil {
			o.permanent = r.err
		}
	default:
		if o.transient == nil {
			o.transient = r.err
		}
		o.retryAfter = max(o.retryAfter, r.err.RetryAfter)
	}
}

// result is the push's outcome: nil when every device that is still
// there took it or refused it for good and one at least took it; a
// transient error when one may take it later, to try all again (the tag
// makes a repeat replace what a device shows); permanent when none could.
func (o outcome) result(devices int) (string, error) {
	said := fmt.Sprintf("pushed to %d of %s", o.delivered, plural(devices, "device", "devices"))
	if o.gone > 0 {
		said += fmt.Sprintf("; %s gone, and removed", plural(o.gone, "device was", "devices were"))
	}
	switch {
	case o.transient != nil:
		return "", &notify.Error{Code: o.transient.Code, RetryAfter: o.retryAfter, Msg: said + "; " + o.transient.Msg, Err: o.transient.Err}
	case o.delivered == 0 && o.permanent != nil:
		return "", &notify.Error{Permanent: true, Code: o.permanent.Code, Msg: said + "; " + o.permanent.Msg, Err: o.permanent.Err}
	case o.delivered == 0:
		return "", &notify.Error{Permanent: true, Msg: said}
	case o.permanent != nil:
		said += "; " + o.permanent.Msg
	}
	return said, nil
}

// recipients are the people of the account that to names for n: of its
// members and of the people whose organisation's role covers it, each
// with the higher of their two roles (people.Effective).
func (s *Service) recipients(ctx context.Context, account string, to notify.PushTarget, n notify.Notification) ([]string, error) {
	items := []notify.Item{n.Item}
	if n.IsDigest() {
		items = n.Items
	}
	members, err := s.members(ctx, account)
	if err != nil {
		return nil, err
	}
	var people []string
	switch to {
	case notify.PushStaff, notify.PushSupervisors:
		least := domain.Staff
		if to == notify.PushSupervisors {
			least = domain.Supervisor
		}
		for _, m := range members {
			if m.Role >= least && covers(m, items, n.Kind == notify.KindTest) {
				people = append(people, m.PersonID)
			}
		}
	case notify.PushClaim:
		claims, err := s.st.ActiveClaims(ctx, account)
		if err != nil {
			return nil, err
		}
		for _, it := range items {
			if it.Alert == nil {
				continue
			}
			c, ok := claims[it.Alert.ID]
			if ok && c.PersonID != "" && !slices.Contains(people, c.PersonID) &&
				slices.ContainsFunc(members, func(m domain.Membership) bool { return m.PersonID == c.PersonID }) {
				people = append(people, c.PersonID)
			}
		}
	}
	slices.Sort(people)
	return people, nil
}

// members are the account's members and the people its organisation's
// roles cover, each with their effective membership, by person.
func (s *Service) members(ctx context.Context, account string) ([]domain.Membership, error) {
	direct, err := s.st.Members(ctx, account)
	if err != nil {
		return nil, err
	}
	org, err := s.st.AccountOrganisationMembers(ctx, account)
	if err != nil {
		return nil, err
	}
	all := make(map[string]domain.Membership, len(direct)+len(org))
	for _, m := range direct {
		all[m.PersonID] = m.Membership
	}
	for _, g := range org {
		all[g.PersonID] = people.Effective(all[g.PersonID], g, account)
	}
	out := make([]domain.Membership, 0, len(all))
	for _, m := range all {
		if m.Role != domain.NoRole {
			out = append(out, m)
		}
	}
	return out, nil
}

// covers reports whether a membership covers the building of one of the
// items: every building, or one of its buildings. A test covers everyone.
func covers(m domain.Membership, items []notify.Item, test bool) bool {
	if len(m.Buildings) == 0 || test {
		return true
	}
	return slices.ContainsFunc(items, func(it notify.Item) bool { return slices.Contains(m.Buildings, it.Where.Building.ID) })
}

// nobody says why nobody is pushed to.
func nobody(to notify.PushTarget, n notify.Notification) string {
	switch to {
	case notify.PushClaim:
		return "nobody of the account holds a claim on the alert"
	case notify.PushSupervisors:
		return "the account has no supervisor, admin or owner whose role covers " + buildingWords(n)
	}
	return "the account has nobody with the role staff or above whose role covers " + buildingWords(n)
}

func buildingWords(n notify.Notification) string {
	if b := n.Where.Building.Name; b != "" && !n.IsDigest() {
		return b
	}
	return "the building"
}

func noDevice(people int) string {
	if people == 1 {
		return "the person to push to has subscribed no device"
	}
	return fmt.Sprintf("none of the %d people to push to has subscribed a device", people)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// retryAfter reads Retry-After in seconds; 0 when absent or unreadable.
// At most an hour.
func retryAfter(h string) time.Duration {
	secs, err := strconv.ParseInt(strings.TrimSpace(h), 10, 64)
	if err != nil || secs <= 0 {
		return 0
	}
	return min(time.Duration(secs)*time.Second, time.Hour)
}
