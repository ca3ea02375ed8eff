package notify

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-smtp"

	"washboard/internal/notify/mailtest"
)

// pdfBytes stands in for a PDF: its header, and bytes that are not text.
var pdfBytes = append([]byte("%PDF-1.3\n"), 0, 0xff, 0x80, '\r', '\n', 0x1b, 'x')

func reportLetter(to ...string) Letter {
	return Letter{To: to, Subject: "Client report: Airport, November 2026", Text: "Claimed within target: 93% (14 of 15).\n",
		Attachments: []Attachment{{Name: "client-report-2026-11.pdf", Type: "application/pdf", Data: pdfBytes}},
		ID:          "report-s1-2026-11@washboard.example.com", At: decided}
}

// A letter is what a mail client reads as a text with a PDF attached:
// multipart/mixed, the text first, the PDF as an attachment in base64
// that decodes to the same bytes.
func TestLetterIsTextWithAFileAttached(t *testing.T) {
	t.Parallel()
	m, err := LetterMessage(reportLetter("ops@client.example", "Boss <boss@client.example>"), "Washboard <reports@washboard.example.com>")
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	if _, err := m.WriteTo(&raw); err != nil {
		t.Fatal(err)
	}
	msg, err := mail.ReadMessage(&raw)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"Subject": "Client report: Airport, November 2026", "Message-Id": "<report-s1-2026-11@washboard.example.com>",
		"To": `<ops@client.example>, "Boss" <boss@client.example>`, "Auto-Submitted": "auto-generated",
	} {
		if got := msg.Header.Get(name); got != want {
			t.Errorf("%s: %q, want %q", name, got, want)
		}
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil || mediaType != "multipart/mixed" {
		t.Fatalf("Content-Type %q, want multipart/mixed", msg.Header.Get("Content-Type"))
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	var types []string
	var text string
	var attached []byte
	for {
		part, err := r.NextRawPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		ct, _, _ := mime.ParseMediaType(part.Header.Get("Content-Type"))
		types = append(types, ct)
		var body io.Reader = part
		switch part.Header.Get("Content-Transfer-Encoding") {
		case "quoted-printable":
			body = quotedprintable.NewReader(part)
		case "base64":
			body = base64.NewDecoder(base64.StdEncoding, part)
		}
		b, err := io.ReadAll(body)
		if err != nil {
			t.Fatal(err)
		}
		switch ct {
		case "text/plain":
			text = string(b)
		case "application/pdf":
			disp, dp, _ := mime.ParseMediaType(part.Header.Get("Content-Disposition"))
			if disp != "attachment" || dp["filename"] != "client-report-2026-11.pdf" || part.Header.Get("Content-Transfer-Encoding") != "base64" {
				t.Errorf("the PDF's part: %v", part.Header)
			}
			attached = b
		}
	}
	if strings.Join(types, ",") != "text/plain,application/pdf" {
		t.Errorf("parts %v, want the text then the PDF", types)
	}
	if !strings.Contains(text, "93% (14 of 15)") {
		t.Errorf("text %q", text)
	}
	if !bytes.Equal(attached, pdfBytes) {
		t.Errorf("the attachment decodes to %q, want %q", attached, pdfBytes)
	}
}

// A letter whose attachments are too large is refused before anything is
// sent, in words.
func TestLetterOfTooLargeAnAttachmentIsRefused(t *testing.T) {
	t.Parallel()
	l := reportLetter("ops@client.example")
	l.Attachments[0].Data = make([]byte, MaxAttachments+1)
	if _, err := LetterMessage(l, "reports@washboard.example.com"); err == nil || !strings.Contains(err.Error(), "more than the 5120 KB a letter carries") {
		t.Errorf("a letter of %d bytes attached: %v", len(l.Attachments[0].Data), err)
	}
}

// The addresses the server takes get the letter; one it refuses is
// said with the server's reply, the password nowhere.
func TestMailLetterReachesTheAddressesTheServerTakes(t *testing.T) {
	t.Parallel()
	ms := mailtest.Start(t, mailtest.Options{})
	ms.Refuse["gone@client.example"] = &smtp.SMTPError{Code: 550, EnhancedCode: smtp.EnhancedCode{5, 1, 1}, Message: "No such user"}
	set := settingsOf(ms, StartTLS)
	set.To = nil
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	took, refused, err := MailLetter(ctx, set, reportLetter("ops@client.example", "gone@client.example", "boss@client.example"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(took, ",") != "ops@client.example,boss@client.example" {
		t.Errorf("took %v", took)
	}
	want := "the mail server " + ms.Addr + " refused the recipient gone@client.example: 550 5.1.1 No such user"
	if len(refused) != 1 || refused[0].Address != "gone@client.example" || !refused[0].Err.Permanent || refused[0].Err.Error() != want {
		t.Errorf("refused %+v, want %q", refused, want)
	}
	mails := ms.Received()
	if len(mails) != 1 || strings.Join(mails[0].To, ",") != "ops@client.example,boss@client.example" || !bytes.Contains(mails[0].Data, []byte("multipart/mixed")) {
		t.Errorf("the server received %d mails: %+v", len(mails), mails)
	}

	// Every address refused: no message at all.
	took, refused, err = MailLetter(ctx, set, reportLetter("gone@client.example"))
	if err != nil || len(took) != 0 || len(refused) != 1 || len(ms.Received()) != 1 {
		t.Errorf("to a refused address alone: took %v, refused %v, %v; %d mails", took, refused, err, len(ms.Received()))
	}
	// A wrong password fails the attempt, without repeating it.
	set.Password = "Tr0ub4dor&3"
	if _, _, err := MailLetter(ctx, set, reportLetter("ops@client.example")); err == nil || strings.Contains(err.Error(), "Tr0ub4dor") {
		t.Errorf("with a wrong password: %v", err)
	}
}
