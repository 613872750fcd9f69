package launchcontext

import "maps"

// Sample returns a launch context in which every path that the platform
// always provides has a value of its type: what any user launching from any
// deployment has. Paths a deployment may leave out (vault, s3, the region's
// optional settings, the cluster's ingress class...) are absent, as on a
// deployment that has none. Lint computes forms in it: an option whose only
// source is such a path gets a value for every user; one that relies on an
// optional path does not on some deployments.
func Sample() map[string]any {
	return map[string]any{
		"user": map[string]any{
			"idep": "jdoe", "name": "Jane Doe", "email": "jane.doe@example.org",
			"password": "correct-horse-battery", "ip": "192.0.2.10", "darkMode": false, "lang": "en",
			"decodedIdToken": map[string]any{"sub": "0b7a5a3e", "preferred_username": "jdoe"},
			"accessToken":    "access-token", "refreshToken": "refresh-token",
		},
		"service": map[string]any{"oneTimePassword": "one-time-password"},
		"project": map[string]any{"id": "user-jdoe", "password": "project-password", "basic": "dXNlci1qZG9lOnByb2plY3Q="},
		"git":     map[string]any{"name": "Jane Doe", "email": "jane.doe@example.org", "credentials_cache_duration": 0.0},
		"region":  map[string]any{"allowedURIPattern": "^https://"},
		"k8s": map[string]any{
			"domain": "example.org", "randomSubdomain": "281390", "initScriptUrl": "https://example.org/init.sh",
			"useCertManager": false,
		},
	}
}

// Merge returns base with over's keys written over it, recursively: a
// profile over the sample, a region over the profile.
func Merge(base, over map[string]any) map[string]any {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]any{}
	}
	for k, v := range over {
		if bm, ok := out[k].(map[string]any); ok {
			if om, ok := v.(map[string]any); ok {
				out[k] = Merge(bm, om)
				continue
			}
		}
		out[k] = v
	}
	return out
}
