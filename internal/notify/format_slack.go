package notify

import (
	"strings"
)

// FormatSlack is a Slack incoming webhook message (FormatSlackBody).
const FormatSlack Format = "slack"

func init() { registerFormat(FormatSlack, "Slack", "a Slack message", FormatSlackBody) }

// chatItems is how many items of a digest a chat message lists; the rest
// are counted ("and 5 more"). Slack allows 50 blocks in a message, and
// Teams about 28 KB of card.
const chatItems = 20

// slackSectionMax is the longest text of a Slack section block.
const slackSectionMax = 3000

// The shape of a Slack incoming webhook message with Block Kit blocks
// (https://api.slack.com/messaging/webhooks, https://api.slack.com/block-kit).
type slackMessage struct {
	Text   string       `json:"text"`
	Blocks []slackBlock `json:"blocks"`
}

type slackBlock struct {
	Type     string         `json:"type"` // "section", "actions", "context"
	Text     *slackText     `json:"text,omitempty"`
	Elements []slackElement `json:"elements,omitempty"`
}

type slackText struct {
	Type string `json:"type"` // "mrkdwn" or "plain_text"
	Text string `json:"text"`
}

type slackElement struct {
	Type string     `json:"type"` // "button", or "mrkdwn" in a context block
	Text *slackText `json:"text,omitempty"`
	URL  string     `json:"url,omitempty"`
}

// FormatSlackBody is a Slack incoming webhook message: "text" is the
// summary (what the notification preview shows), and "blocks" a section
// in mrkdwn with what, where, since, what to bring and what to do, and an
// actions block with an "Open" button linking to the location's page. A
// digest has a section per item (at most 20, then a count of the rest).
func FormatSlackBody(n Notification) ([]byte, error) {
	w := wordsIn(n.Lang)
	m := slackMessage{Text: slackEscape(n.Subject())}
	switch n.Kind {
	case KindTest:
		m.Blocks = append(m.Blocks, slackSection("*"+slackEscape(n.Subject())+"*\n"+slackEscape(w.testText())))
	case KindDigest:
		m.Blocks = append(m.Blocks, slackSection("*"+slackEscape(n.Subject())+"*"))
		for i, it := range n.Items {
			if i == chatItems {
				m.Blocks = append(m.Blocks, slackSection(slackEscape(w.more(len(n.Items)-chatItems))))
				break
			}
			m.Blocks = append(m.Blocks, slackSection(slackItem(it, n)))
		}
	default:
		lines := []string{"*" + slackEscape(w.headline(n.Item)) + "*"}
		if full := n.Where.Full(); full != "" {
			lines = append(lines, slackEscape(full))
		}
		lines = append(lines, slackDetails(n.Item, n)...)
		m.Blocks = append(m.Blocks, slackSection(strings.Join(lines, "\n")))
	}
	if n.URL != "" {
		m.Blocks = append(m.Blocks, slackBlock{Type: "actions", Elements: []slackElement{{
			Type: "button", Text: &slackText{Type: "plain_text", Text: w.open()}, URL: n.URL,
		}}})
	}
	return marshal(m)
}

func slackSection(text string) slackBlock {
	if len(text) > slackSectionMax {
		text = truncate(text, slackSectionMax-len("…"))
		if amp := strings.LastIndexByte(text, '&'); amp > strings.LastIndexByte(text, ';') {
			text = text[:amp] // not half an escape
		}
		text += "…"
	}
	return slackBlock{Type: "section", Text: &slackText{Type: "mrkdwn", Text: text}}
}

// slackItem is a digest's item: the headline, the place linked to its
// page, and the details.
func slackItem(it Item, n Notification) string {
	place := slackEscape(it.Where.Place())
	if it.URL != "" && place != "" {
		place = "<" + it.URL + "|" + place + ">"
	}
	line := "*" + slackEscape(wordsIn(n.Lang).headline(it)) + "*"
	if place != "" {
		line += ": " + place
	}
	return strings.Join(append([]string{line}, slackDetails(it, n)...), "\n")
}

// slackDetails are the lines of since, bring and what to do.
func slackDetails(it Item, n Notification) []string {
	w := wordsIn(n.Lang)
	var lines []string
	if !it.Since.IsZero() {
		lines = append(lines, "*"+slackEscape(w.titled(w.since()))+"* "+slackEscape(w.when(it.Since, n.Zone)))
	}
	if b := w.bring(it.Bring); b != "" {
		lines = append(lines, "*"+slackEscape(w.titled(w.bringTitle()))+"* "+slackEscape(b))
	}
	if todo := w.todo(it); todo != "" {
		lines = append(lines, "*"+slackEscape(w.titled(w.todoTitle()))+"* "+slackEscape(todo))
	}
	return lines
}

// slackEscape escapes the three characters Slack's mrkdwn gives a meaning
// to as markup: &, < and >.
func slackEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// truncate cuts s to at most n bytes, at a rune boundary.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n]
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
