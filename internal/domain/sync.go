package domain

// Resource is one of the service's resources that the sync refreshes.
type Resource string

// The resources.
const (
	ResourceMetadata Resource = "metadata"
	ResourceDevices  Resource = "devices"
	ResourceAlerts   Resource = "alerts"
)

// Change counts what a refresh, or the service's events, did to the cache.
type Change struct {
	Added, Changed, Removed int
}

// Empty reports whether the refresh changed nothing.
func (c Change) Empty() bool { return c.Added == 0 && c.Changed == 0 && c.Removed == 0 }

// Plus adds two changes.
func (c Change) Plus(o Change) Change {
	return Change{c.Added + o.Added, c.Changed + o.Changed, c.Removed + o.Removed}
}

// Scope is a level of the layout that counts are kept over.
type Scope string

// The scopes.
const (
	ScopeAccount  Scope = "account"
	ScopeBuilding Scope = "building"
	ScopeFloor    Scope = "floor"
	ScopeRoom     Scope = "room"
)
