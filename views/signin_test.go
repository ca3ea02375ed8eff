package views

import (
	"strings"
	"testing"
)

func TestSignInFormNeverHoldsCredentials(t *testing.T) {
	m := SignIn{Page: Page{Title: "Sign in", CSRFToken: "tok-<&>"}, Next: "/alerts?status=open"}
	doc, _ := render(t, SignInPage(m))
	form := doc.Find(`form[action="/signin"]`)
	if form.AttrOr("method", "") != "post" {
		t.Fatalf("sign-in form method = %q", form.AttrOr("method", ""))
	}
	for _, name := range []string{"api_key", "authorization"} {
		in := form.Find(`input[name="` + name + `"]`)
		if in.Length() != 1 {
			t.Fatalf("no field %q", name)
		}
		if in.AttrOr("type", "") != "password" || in.AttrOr("autocomplete", "") != "off" {
			t.Errorf("%s: type %q autocomplete %q", name, in.AttrOr("type", ""), in.AttrOr("autocomplete", ""))
		}
		if v, ok := in.Attr("value"); ok && v != "" {
			t.Errorf("%s is pre-filled with %q", name, v)
		}
		if id := in.AttrOr("id", ""); id == "" || form.Find(`label[for="`+id+`"]`).Length() != 1 {
			t.Errorf("%s has no label", name)
		}
	}
	if got := form.Find(`input[type="hidden"][name="csrf_token"]`).AttrOr("value", ""); got != "tok-<&>" {
		t.Errorf("csrf_token = %q", got)
	}
	if got := form.Find(`input[type="hidden"][name="next"]`).AttrOr("value", ""); got != "/alerts?status=open" {
		t.Errorf("next = %q", got)
	}
	if doc.Find(`[role="alert"]`).Length() != 0 {
		t.Error("an error box without an error")
	}
	if doc.Find(`form[action="/signin/demo"]`).Length() != 0 {
		t.Error("demo form without a demo")
	}
	if !strings.Contains(text(doc.Find("main")), "server-side session, encrypted") {
		t.Error("the page does not say where the credentials are kept")
	}
	if doc.Find(`meta[name="csrf-token"]`).Length() != 0 || doc.Find(`form[action="/signout"]`).Length() != 0 {
		t.Error("a signed-out page carries the signed-in header")
	}
}

func TestSignInErrorAndDemo(t *testing.T) {
	m := SignIn{Page: Page{CSRFToken: "tok"}, Error: "The service answered 401 Unauthorized.", Kind: "rejected", Demo: true, Next: "/"}
	doc, _ := render(t, SignInPage(m))
	box := doc.Find(`[role="alert"]`)
	if got := text(box); !strings.Contains(got, "rejected these credentials") || !strings.Contains(got, m.Error) {
		t.Errorf("error box reads %q", got)
	}
	demo := doc.Find(`form[action="/signin/demo"]`)
	if demo.AttrOr("method", "") != "post" || demo.Find(`input[name="csrf_token"]`).AttrOr("value", "") != "tok" ||
		demo.Find(`input[name="next"]`).Length() != 1 {
		t.Error("demo form lacks method, csrf_token or next")
	}
	if got := text(demo.Find("button")); got != "Use the demo account" {
		t.Errorf("demo button reads %q", got)
	}
	for kind, want := range map[string]string{"unreachable": "could not be reached", "limited": "Too many attempts", "invalid": "not filled in"} {
		m.Kind = kind
		doc, _ := render(t, SignInPage(m))
		if got := text(doc.Find(`[role="alert"]`)); !strings.Contains(got, want) {
			t.Errorf("%s error reads %q", kind, got)
		}
	}
}
