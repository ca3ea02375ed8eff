package web

import (
	"errors"
	"math"
	"strconv"

	"github.com/labstack/echo/v4"

	"washboard/internal/domain"
	"washboard/internal/oidc"
	"washboard/internal/passkey"
	"washboard/internal/people"
	"washboard/web/form"
	"washboard/web/httpkit"
)

// The words of people, their ways in and their accounts, in the request's
// language: what the people service, passkeys and single sign-on refuse,
// and the fields of their forms.

// problemIn is the words of an error of people a page shows, in the
// request's language: a known problem, a sign-in link asked for too soon,
// a limit; for another problem, a refusal or a limit, its own words
// (peopleWords); "" for any other error.
func problemIn(c echo.Context, err error) string {
	if err == nil {
		return ""
	}
	if words := knownProblemIn(c, err); words != "" {
		return words
	}
	var soon *domain.TooSoonError
	if errors.As(err, &soon) {
		minutes := max(1, int(math.Ceil(soon.Wait.Minutes())))
		if soon.Address {
			return trn(c, "signinmail.too_soon_address", minutes)
		}
		return trn(c, "signinmail.too_soon_server", minutes)
	}
	return peopleWords(err)
}

// knownProblemIn is the words of one of the problems people, passkeys and
// single sign-on name, in the request's language; "" for another error.
func knownProblemIn(c echo.Context, err error) string {
	switch {
	case errors.Is(err, domain.ErrLastOwner):
		return tr(c, "people.last_owner")
	case errors.Is(err, domain.ErrAlreadyMember):
		return tr(c, "invite.already_member")
	case errors.Is(err, domain.ErrEmailTaken):
		return tr(c, "people.email_taken")
	case errors.Is(err, domain.ErrAlreadyConnected):
		return tr(c, "account.already_connected")
	case errors.Is(err, domain.ErrNotConnected):
		return tr(c, "account.not_connected")
	case errors.Is(err, domain.ErrPasskeyRegistered):
		return tr(c, "passkeys.registered")
	case errors.Is(err, people.ErrPasskeyCloned):
		return tr(c, "passkeys.cloned")
	case errors.Is(err, domain.ErrInvitationUnknown):
		return tr(c, "invite.unknown")
	case errors.Is(err, domain.ErrInvitationUsed):
		return tr(c, "invite.used")
	case errors.Is(err, domain.ErrInvitationExpired):
		return tr(c, "invite.expired")
	case errors.Is(err, domain.ErrInvitationWithdrawn):
		return tr(c, "invite.withdrawn")
	case errors.Is(err, domain.ErrEnrolmentUsed):
		return tr(c, "devices.link_used")
	case errors.Is(err, domain.ErrEnrolmentRevoked):
		return tr(c, "devices.link_revoked")
	case errors.Is(err, domain.ErrSignInLinkUnknown):
		return tr(c, "signinmail.link_unknown")
	case errors.Is(err, domain.ErrSignInLinkUsed):
		return tr(c, "signinmail.link_used")
	case errors.Is(err, domain.ErrSignInLinkExpired):
		return tr(c, "signinmail.link_expired")
	}
	if words := refusalIn(c, err); words != "" {
		return words
	}
	if words := passkeyProblemIn(c, err); words != "" {
		return words
	}
	return ssoProblemIn(c, err)
}

// refusalIn is the words of what the rules of people refuse most often;
// "" for another error.
func refusalIn(c echo.Context, err error) string {
	var email *people.EmailError
	var nobody *people.NobodyError
	var text *people.TextError
	var above *people.RoleAboveError
	var long *people.EmailTooLongError
	var claimant *people.ClaimantError
	switch {
	case errors.As(err, &claimant) && claimant.Viewer:
		return tr(c, "form.claimant_viewer", "name", claimant.Name)
	case errors.As(err, &claimant):
		return tr(c, "form.claimant_elsewhere", "name", claimant.Name, "building", claimant.Building)
	case errors.Is(err, people.ErrChooseClaimant):
		return tr(c, "form.claimant_missing")
	case errors.Is(err, people.ErrNotAMember):
		return tr(c, "form.claimant_unknown")
	case errors.As(err, &text):
		return textProblemIn(c, text)
	case errors.As(err, &above):
		return tr(c, "form.role_above_own", "role", roleIn(c, above.Own))
	case errors.Is(err, people.ErrChooseRole):
		return tr(c, "people.role_unknown")
	case errors.As(err, &long):
		return tr(c, "form.too_long", "field", tr(c, "me.email"), "max", domain.MaxEmail)
	case errors.As(err, &email):
		return tr(c, "people.email_invalid", "value", strconv.Quote(email.Value))
	case errors.As(err, &nobody):
		return tr(c, "org.nobody_with_email", "email", nobody.Email)
	case errors.Is(err, people.ErrOwnerMakesOwner):
		return tr(c, "people.owner_makes_owner")
	case errors.Is(err, people.ErrOwnerChangesOwner):
		return tr(c, "people.owner_changes_owner")
	case errors.Is(err, people.ErrRoleAbove):
		return tr(c, "people.role_above")
	case errors.Is(err, people.ErrBuildingsBeyond):
		return tr(c, "people.buildings_beyond")
	case errors.Is(err, people.ErrGrantBuildingsBeyond):
		return tr(c, "people.grant_buildings_beyond")
	case errors.Is(err, people.ErrEnrolBeyond):
		return tr(c, "devices.enrol_beyond")
	case errors.Is(err, people.ErrOrgOwnerMakesOwner):
		return tr(c, "org.owner_makes_owner")
	case errors.Is(err, people.ErrOrgOwnerChangesOwner):
		return tr(c, "org.owner_changes_owner")
	case errors.Is(err, people.ErrOrgAccountsBeyond):
		return tr(c, "org.accounts_beyond")
	case errors.Is(err, people.ErrChooseBuildings):
		return tr(c, "people.choose_buildings")
	case errors.Is(err, people.ErrOwnAccountOnly):
		return tr(c, "org.own_account_only")
	case errors.Is(err, people.ErrOrgManagersOnly):
		return tr(c, "org.managers_only")
	case errors.Is(err, people.ErrOrgAccountNotCovered):
		return tr(c, "org.account_not_covered")
	case errors.Is(err, people.ErrOrgGrantAccountsBeyond):
		return tr(c, "org.grant_accounts_beyond")
	case errors.Is(err, people.ErrInOrganisation):
		return tr(c, "org.in_organisation")
	case errors.Is(err, people.ErrAccountInOrganisation):
		return tr(c, "org.account_in_organisation")
	case errors.Is(err, people.ErrCredentialsSealed):
		return tr(c, "account.credentials_sealed")
	case errors.Is(err, people.ErrInvitationsFull):
		return trn(c, "people.invitations_full", people.MaxInvitations)
	case errors.Is(err, people.ErrDevicesFull):
		return trn(c, "devices.full", people.MaxDevices)
	case errors.Is(err, people.ErrOrganisationFull):
		return trn(c, "org.full", people.MaxOrganisationPeople)
	}
	return ""
}

// textProblemIn is what is wrong with a text the rules of people
// refused, after the field's label, as a form says it; "" for the texts
// of a single sign-on's identity, which nobody types (said in English).
func textProblemIn(c echo.Context, e *people.TextError) string {
	var label string
	switch e.What {
	case people.PersonName:
		label = tr(c, "me.name")
	case people.DeviceName:
		label = tr(c, "devices.name")
	case people.PasskeyName:
		label = tr(c, "passkeys.name_field")
	case people.OrganisationName:
		label = tr(c, "org.name")
	case people.ClientName:
		label = tr(c, "org.client")
	case people.Region:
		label = tr(c, "org.region")
	default:
		return ""
	}
	switch e.Problem {
	case people.TextMissing:
		return tr(c, "form.fill_in", "field", label)
	case people.TextTooLong:
		return tr(c, "form.too_long", "field", label, "max", e.Max)
	}
	return tr(c, "form.control_character", "field", label)
}

// passkeyProblemIn is the words of a refused passkey answer; "" for
// another error.
func passkeyProblemIn(c echo.Context, err error) string {
	switch {
	case errors.Is(err, passkey.ErrNoCeremony):
		return tr(c, "passkeys.no_ceremony")
	case errors.Is(err, passkey.ErrExpired):
		return tr(c, "passkeys.expired")
	case errors.Is(err, passkey.ErrReplayed):
		return tr(c, "passkeys.replayed")
	case errors.Is(err, passkey.ErrUnknownPasskey):
		return tr(c, "passkeys.unknown")
	case errors.Is(err, passkey.ErrOtherPerson):
		return tr(c, "passkeys.other_person")
	case errors.Is(err, passkey.ErrOtherSite):
		return tr(c, "passkeys.other_site")
	case errors.Is(err, passkey.ErrNotVerified):
		return tr(c, "passkeys.not_verified")
	case errors.Is(err, passkey.ErrGarbled):
		return tr(c, "passkeys.garbled")
	}
	return ""
}

// ssoProblemIn is the words of a failed sign-in through single sign-on;
// "" for another error.
func ssoProblemIn(c echo.Context, err error) string {
	switch {
	case errors.Is(err, oidc.ErrNoSignIn):
		return tr(c, "sso.no_sign_in")
	case errors.Is(err, oidc.ErrRefused):
		return tr(c, "sso.refused")
	case errors.Is(err, oidc.ErrStateMismatch):
		return tr(c, "sso.state_mismatch")
	case errors.Is(err, oidc.ErrStateReplayed):
		return tr(c, "sso.state_replayed")
	case errors.Is(err, oidc.ErrPendingExpired):
		return tr(c, "sso.pending_expired")
	case errors.Is(err, oidc.ErrNonce):
		return tr(c, "sso.nonce")
	case errors.Is(err, oidc.ErrTokenExpired):
		return tr(c, "sso.token_expired")
	case errors.Is(err, oidc.ErrTokenInvalid):
		return tr(c, "sso.token_invalid")
	case errors.Is(err, oidc.ErrIssuer):
		return tr(c, "sso.issuer")
	case errors.Is(err, oidc.ErrUnreachable):
		return tr(c, "sso.unreachable")
	case errors.Is(err, oidc.ErrGarbage):
		return tr(c, "sso.garbage")
	case errors.Is(err, oidc.ErrNotAllowed):
		return tr(c, "sso.not_allowed")
	}
	return ""
}

// peopleProblemIn is peopleProblem with the words of a known problem in
// the request's language.
func peopleProblemIn(c echo.Context, err error) error {
	out := peopleProblem(err)
	var he *httpkit.Error
	if words := knownProblemIn(c, err); words != "" && errors.As(out, &he) {
		he.Msg = words
	}
	return out
}

// textField is a text field of the forms of people, its problems said in
// the request's language: label is the field's name in it, max the most
// characters it takes.
func textField(c echo.Context, name, label string, dst *string, max int) *form.Field {
	return form.Text(name, label, dst).Trim().MaxChars(max).
		SaysFor(form.Missing, tr(c, "people.field_missing", "field", label)).
		SaysFor(form.TooLong, tr(c, "people.field_too_long", "field", label, "max", max))
}

// roleField is a role chosen in a form.
func roleField(c echo.Context, dst *string) *form.Field {
	var words []string
	for _, r := range domain.Roles() {
		words = append(words, r.String())
	}
	return form.Text("role", tr(c, "people.role"), dst).Trim().Required().OneOf(words...).
		Says(tr(c, "people.role_unknown"))
}
