package httpkit

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/crc32"
	"sync"
)

// A gzip member is a header, one deflate stream and a trailer with the
// CRC-32 and the length of what was compressed. A deflate stream may be
// put together from pieces compressed apart, when each piece refers to
// nothing before it and all but the last end at a byte boundary without
// marking the end of the stream: a sync flush, or a stored block. So a
// kept page's region and the frame around it are compressed once, and a
// request joins them around the CSRF token it carries.

// DeflatePiece is a piece of a deflate stream, with the CRC-32 and the
// length of what it holds.
type DeflatePiece struct {
	z   []byte
	crc uint32
	n   int
}

// Size is the piece's compressed size.
func (p DeflatePiece) Size() int { return len(p.z) }

// DeflateLast is the empty piece that ends a stream.
var DeflateLast = CompressPiece(nil, flate.BestSpeed, true)

// CompressPiece compresses b into a piece of a deflate stream, the last
// one when last is set.
func CompressPiece(b []byte, level int, last bool) DeflatePiece {
	pool := flatePools[level]
	fw := pool.Get().(*flate.Writer)
	defer pool.Put(fw)
	var z bytes.Buffer
	z.Grow(len(b)/4 + 64)
	fw.Reset(&z)
	fw.Write(b)
	if last {
		fw.Close()
	} else {
		fw.Flush()
	}
	return DeflatePiece{z: z.Bytes(), crc: crc32.ChecksumIEEE(b), n: len(b)}
}

// StoredPiece is b as a piece of a deflate stream, stored as it is: a
// stored block, which starts and ends at a byte boundary. b is at most
// 65,535 bytes.
func StoredPiece(b []byte) DeflatePiece {
	if len(b) == 0 {
		return DeflatePiece{}
	}
	z := make([]byte, 0, 5+len(b))
	z = append(z, 0) // not the last block; stored; padded to the byte
	z = binary.LittleEndian.AppendUint16(z, uint16(len(b)))
	z = binary.LittleEndian.AppendUint16(z, ^uint16(len(b)))
	z = append(z, b...)
	return DeflatePiece{z: z, crc: crc32.ChecksumIEEE(b), n: len(b)}
}

// flatePools hold compressors by level: each holds about a megabyte of
// tables, too much to make for every request.
var flatePools = map[int]*sync.Pool{
	flate.BestSpeed:          newFlatePool(flate.BestSpeed),
	flate.DefaultCompression: newFlatePool(flate.DefaultCompression),
}

func newFlatePool(level int) *sync.Pool {
	return &sync.Pool{New: func() any {
		fw, _ := flate.NewWriter(nil, level)
		return fw
	}}
}

// gzipHeader is a gzip member's header: deflate, no name, no time, an
// unknown operating system.
var gzipHeader = []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// GzipOverhead is the size of a gzip member around its deflate stream:
// the header, and the trailer's CRC-32 and length.
const GzipOverhead = 10 + 8

// AppendGzip appends to dst a gzip member of pieces, the last of which
// ends the stream. The member's CRC-32 is worked out from the pieces',
// without reading what they hold again.
func AppendGzip(dst []byte, pieces ...DeflatePiece) []byte {
	dst = append(dst, gzipHeader...)
	var crc uint32
	n := 0
	for _, p := range pieces {
		dst = append(dst, p.z...)
		crc = crc32Combine(crc, p.crc, p.n)
		n += p.n
	}
	dst = binary.LittleEndian.AppendUint32(dst, crc)
	return binary.LittleEndian.AppendUint32(dst, uint32(n))
}

// crc32Combine is the CRC-32 (IEEE) of a followed by b, from the CRC-32
// of each and the length of b, as zlib's crc32_combine works it out: the
// CRC of a is multiplied by x^(8·lenB) modulo the CRC's polynomial, which
// is what running it over lenB more bytes does, and the CRC of b added.
func crc32Combine(crcA, crcB uint32, lenB int) uint32 {
	return multModP(xPow8nModP(lenB), crcA) ^ crcB
}

// Polynomials modulo the CRC-32 polynomial, in its reflected bit order:
// the top bit is x⁰.
const crcPoly = 0xedb88320

// multModP is a·b modulo the CRC-32 polynomial.
func multModP(a, b uint32) uint32 {
	var p uint32
	for m := uint32(1) << 31; m != 0; m >>= 1 {
		if a&m != 0 {
			p ^= b
		}
		if b&1 != 0 {
			b = b>>1 ^ crcPoly
		} else {
			b >>= 1
		}
	}
	return p
}

// xPow8nModP is x^(8n) modulo the CRC-32 polynomial.
func xPow8nModP(n int) uint32 {
	p := uint32(1) << 31 // x⁰
	for k := 3; n > 0; n, k = n>>1, k+1 {
		if n&1 != 0 {
			p = multModP(x2kModP[k&31], p)
		}
	}
	return p
}

// x2kModP[k] is x^(2^k) modulo the CRC-32 polynomial.
var x2kModP = func() (t [32]uint32) {
	p := uint32(1) << 30 // x¹
	for k := range t {
		t[k] = p
		p = multModP(p, p)
	}
	return t
}()
