package views

// EmailSignIn asks for an e-mail address to send a one-time sign-in link
// to, or says that one is on its way, or why none can be sent.
type EmailSignIn struct {
	Page
	// Unavailable says why this server sends no links; "" when it does.
	Unavailable string
	Email       string // as typed
	Error       string // what is wrong with the address, or why to wait
	Sent        bool   // the answer to a request: the same whoever the address is
}

// SignInLink is the page of an e-mailed sign-in link: a button that signs
// in (so that a mail scanner that follows the link does not use it up), or
// why the link cannot be used.
type SignInLink struct {
	Page
	// Token is the link's own token, for the form posting back to the
	// page's own address; never shown.
	Token   string
	Problem string
}
