// Package installtest tests the ways contributors install catalogist: the
// pre-commit hook of .pre-commit-hooks.yaml, run by the real pre-commit on
// a scratch catalog repository, and the Helm plugin of plugin.yaml,
// installed into the pinned Helm 3 and Helm 4 CLIs. Both install from a
// scratch copy of this module, uncommitted work included, committed in
// its own git repository.
package installtest
