package notify

import ()

// FormatTeams is a Microsoft Teams Workflows card message
// (FormatTeamsBody).
const FormatTeams Format = "teams"

func init() {
	registerFormat(FormatTeams, "Microsoft Teams", "a Microsoft Teams card", FormatTeamsBody)
}

// The shape of a message to a Microsoft Teams Workflows webhook (the
// Power Automate trigger "When a Teams webhook request is received"): a
// message with one Adaptive Card attachment
// (https://adaptivecards.io/explorer/AdaptiveCard.html).
type teamsMessage struct {
	Type        string            `json:"type"` // "message"
	Attachments []teamsAttachment `json:"attachments"`
}

type teamsAttachment struct {
	ContentType string       `json:"contentType"` // "application/vnd.microsoft.card.adaptive"
	ContentURL  *string      `json:"contentUrl"`  // null, as Microsoft's examples write it
	Content     adaptiveCard `json:"content"`
}

type adaptiveCard struct {
	Schema  string        `json:"$schema"`
	Type    string        `json:"type"` // "AdaptiveCard"
	Version string        `json:"version"`
	Body    []cardElement `json:"body"`
	Actions []cardAction  `json:"actions,omitempty"`
}

// cardElement is a TextBlock or a FactSet.
type cardElement struct {
	Type      string     `json:"type"`
	Text      string     `json:"text,omitempty"`
	Size      string     `json:"size,omitempty"`
	Weight    string     `json:"weight,omitempty"`
	Color     string     `json:"color,omitempty"`
	IsSubtle  bool       `json:"isSubtle,omitempty"`
	Wrap      bool       `json:"wrap,omitempty"`
	Separator bool       `json:"separator,omitempty"`
	Facts     []cardFact `json:"facts,omitempty"`
}

type cardFact struct {
	Title string `json:"title"`
	Value string `json:"value"`
}

type cardAction struct {
	Type  string `json:"type"` // "Action.OpenUrl"
	Title string `json:"title"`
	URL   string `json:"url"`
}

// FormatTeamsBody is a Teams Workflows message holding one Adaptive Card
// (version 1.4): a TextBlock with the headline, one with where, a FactSet
// with since, what to bring, what to do and the alert, and an
// Action.OpenUrl "Open" to the location's page. A digest has a TextBlock
// per item (at most 20, then a count of the rest).
func FormatTeamsBody(n Notification) ([]byte, error) {
	card := adaptiveCard{Schema: "http://adaptivecards.io/schemas/adaptive-card.json", Type: "AdaptiveCard", Version: "1.4"}
	w := wordsIn(n.Lang)
	title := cardElement{Type: "TextBlock", Text: n.Subject(), Size: "Medium", Weight: "Bolder", Wrap: true}
	switch n.Kind {
	case KindTest:
		card.Body = []cardElement{title, {Type: "TextBlock", Text: w.testText(), Wrap: true}}
	case KindDigest:
		card.Body = []cardElement{title}
		for i, it := range n.Items {
			if i == chatItems {
				card.Body = append(card.Body, cardElement{Type: "TextBlock", Text: w.more(len(n.Items) - chatItems), Wrap: true, Separator: true})
				break
			}
			text := "**" + w.headline(it) + "**"
			if place := it.Where.Place(); place != "" && it.URL != "" {
				text += ": [" + place + "](" + it.URL + ")"
			} else if place != "" {
				text += ": " + place
			}
			card.Body = append(card.Body, cardElement{Type: "TextBlock", Text: text, Wrap: true, Separator: true})
			if facts := teamsFacts(it, n, false); len(facts) > 0 {
				card.Body = append(card.Body, cardElement{Type: "FactSet", Facts: facts})
			}
		}
	default:
		title.Text = w.headline(n.Item)
		title.Color = teamsColor(n.Kind)
		card.Body = []cardElement{title}
		if full := n.Where.Full(); full != "" {
			card.Body = append(card.Body, cardElement{Type: "TextBlock", Text: full, Wrap: true, IsSubtle: true})
		}
		if facts := teamsFacts(n.Item, n, true); len(facts) > 0 {
			card.Body = append(card.Body, cardElement{Type: "FactSet", Facts: facts})
		}
	}
	if n.URL != "" {
		card.Actions = []cardAction{{Type: "Action.OpenUrl", Title: w.open(), URL: n.URL}}
	}
	return marshal(teamsMessage{Type: "message", Attachments: []teamsAttachment{{
		ContentType: "application/vnd.microsoft.card.adaptive", Content: card,
	}}})
}

// teamsColor is the headline's colour, as the e-mail's accent: red for
// what needs action, amber for what needs attention.
func teamsColor(k Kind) string {
	switch accent(k) {
	case accentAction:
		return "Attention"
	case accentAttention:
		return "Warning"
	}
	return ""
}

// teamsFacts are an item's since, bring, what to do and, when withAlert,
// its alert.
func teamsFacts(it Item, n Notification, withAlert bool) []cardFact {
	w := wordsIn(n.Lang)
	var facts []cardFact
	if !it.Since.IsZero() {
		facts = append(facts, cardFact{w.since(), w.when(it.Since, n.Zone)})
	}
	if b := w.bring(it.Bring); b != "" {
		facts = append(facts, cardFact{w.bringTitle(), b})
	}
	if todo := w.todo(it); todo != "" {
		facts = append(facts, cardFact{w.todoTitle(), todo})
	}
	if withAlert && it.Alert != nil {
		facts = append(facts, cardFact{w.alertTitle(), w.alertLine(*it.Alert, n.Zone)})
	}
	return facts
}
