package upstream

import "washboard/internal/domain"

// Credentials are what a request needs to be answered for one account:
// see domain.Credentials.
type Credentials = domain.Credentials

// CredentialsError says what makes credentials unusable: see
// domain.CredentialsError.
type CredentialsError = domain.CredentialsError

// redacted is what credentials show in place of their values.
const redacted = "REDACTED"
