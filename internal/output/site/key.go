package site

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"reflect"
	"slices"
)

// viewKey hashes what a page is made from: the templates and every value of
// its view, so that an equal key means equal bytes.
func (b *renderer) viewKey(tmpl string, pv *pageView) string {
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", b.ts.sum, tmpl)
	hashValue(h, reflect.ValueOf(pv))
	return hex.EncodeToString(h.Sum(nil))
}

// hashValue writes a value to h unambiguously: strings with their length,
// slices with theirs, nil pointers apart from pointers to zero values.
// Unexported fields count too: a view is hashed whole.
func hashValue(h hash.Hash, v reflect.Value) {
	var buf [binary.MaxVarintLen64]byte
	num := func(n uint64) { h.Write(buf[:binary.PutUvarint(buf[:], n)]) }
	switch v.Kind() {
	case reflect.String:
		num(uint64(v.Len()))
		h.Write([]byte(v.String()))
	case reflect.Bool:
		if v.Bool() {
			num(1)
		} else {
			num(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		num(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		num(v.Uint())
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			num(0)
			return
		}
		num(1)
		hashValue(h, v.Elem())
	case reflect.Slice, reflect.Array:
		num(uint64(v.Len()))
		for i := range v.Len() {
			hashValue(h, v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			hashValue(h, v.Field(i))
		}
	case reflect.Float32, reflect.Float64:
		num(math.Float64bits(v.Float()))
	case reflect.Map:
		// Entries in the order of their hashes.
		entries := make([]string, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			e := sha256.New()
			hashValue(e, it.Key())
			hashValue(e, it.Value())
			entries = append(entries, string(e.Sum(nil)))
		}
		slices.Sort(entries)
		num(uint64(len(entries)))
		for _, e := range entries {
			h.Write([]byte(e))
		}
	default:
		// Functions, channels: no key can say the page is unchanged, so
		// the key is made to match no other.
		var nonce [16]byte
		rand.Read(nonce[:])
		h.Write(nonce[:])
	}
}
