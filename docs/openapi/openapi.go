// Package openapi holds the OpenAPI 3.1 document of the Device Monitoring
// Service as Washboard reads the vendor's description of it: every
// endpoint, parameter, field and error, the token endpoint, the webhook
// events, and the simulator's own admin routes (marked
// x-washboard-simulator). `washboard sim` serves it at /openapi.json, and
// the simulator's tests check its answers against it.
package openapi

import _ "embed"

//go:embed device-monitoring.json
var deviceMonitoring string

// DeviceMonitoring returns the document, as JSON.
func DeviceMonitoring() string { return deviceMonitoring }
