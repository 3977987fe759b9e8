//go:build linux

package settle

import (
	"encoding/binary"
	"hash/fnv"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// tcpInfo is the head of Linux's struct tcp_info, up to
// tcpi_bytes_received (syscall.TCPInfo stops before the byte counters).
type tcpInfo struct {
	State         uint8
	_             [7]uint8
	_             [4]uint32 // rto, ato, snd_mss, rcv_mss
	Unacked       uint32    // for a listener: the accept queue's length
	_             [19]uint32
	_             [2]uint64 // pacing rates
	BytesAcked    uint64
	BytesReceived uint64
}

const (
	tcpEstablished = 1
	tcpClose       = 7
	tcpListen      = 10
)

var tcpStates = map[uint8]string{
	2: "SYN_SENT", 3: "SYN_RECV", 4: "FIN_WAIT1", 5: "FIN_WAIT2", 6: "TIME_WAIT",
	8: "CLOSE_WAIT", 9: "LAST_ACK", 11: "CLOSING",
}

type tcpConn struct {
	local, remote netip.AddrPort
	outq          int
	info          tcpInfo
	full          bool // info includes the byte counters
}

// socketsQuiet reports whether no data can be on its way to a goroutine of
// this process that waits to read: it looks at every descriptor in
// /proc/self/fd, read-only, and finds no non-empty accept queue, no unread
// bytes, no TCP connection in a transitional state, no connection to a peer
// outside the process, and no bytes sent by one end that the other end has
// not received. It reports why not otherwise. sig identifies the state it
// saw — the descriptors and each TCP socket's byte counters — so that two
// looks with the same sig prove that no data moved in between.
func socketsQuiet() (quiet bool, why string, sig uint64) {
	dir, err := os.Open("/proc/self/fd")
	if err != nil {
		return false, "cannot list /proc/self/fd: " + err.Error(), 0
	}
	names, err := dir.Readdirnames(-1)
	dir.Close()
	if err != nil {
		return false, "cannot list /proc/self/fd: " + err.Error(), 0
	}
	pid := os.Getpid()
	h := fnv.New64a()
	var conns []tcpConn
	for _, name := range names {
		fd, err := strconv.Atoi(name)
		if err != nil {
			continue
		}
		link, err := os.Readlink("/proc/self/fd/" + name)
		if err != nil {
			continue // closed meanwhile
		}
		h.Write([]byte(name + "=" + link + ";"))
		switch {
		case strings.HasPrefix(link, "pipe:"):
			if n, err := ioctlInt(fd, syscall.TIOCINQ); err == nil && n > 0 {
				return false, "a pipe holds " + strconv.Itoa(n) + " unread bytes", 0
			}
		case strings.HasPrefix(link, "socket:"):
			c, quiet, why := inspectSocket(fd, pid)
			if !quiet {
				return false, why, 0
			}
			if c != nil {
				conns = append(conns, *c)
				var b [8]byte
				binary.LittleEndian.PutUint64(b[:], c.info.BytesReceived)
				h.Write(b[:])
				binary.LittleEndian.PutUint64(b[:], c.info.BytesAcked+uint64(c.outq))
				h.Write(b[:])
			}
		}
	}
	type pair struct{ local, remote netip.AddrPort }
	byPair := make(map[pair]*tcpConn, len(conns))
	for i := range conns {
		byPair[pair{conns[i].local, conns[i].remote}] = &conns[i]
	}
	for _, c := range conns {
		peer := byPair[pair{c.remote, c.local}]
		if peer == nil {
			return false, "a TCP connection " + c.local.String() + " -> " + c.remote.String() + " has its peer outside the process (or not yet accepted)", 0
		}
		if c.outq > 0 && (!c.full || !peer.full || peer.info.BytesReceived < c.info.BytesAcked+uint64(c.outq)) {
			return false, "bytes in flight on " + c.local.String() + " -> " + c.remote.String(), 0
		}
	}
	return true, "", h.Sum64()
}

// inspectSocket looks at one socket. It returns the connection for pairing
// when fd is an established TCP socket.
func inspectSocket(fd, pid int) (*tcpConn, bool, string) {
	domain, err := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_DOMAIN)
	if err != nil {
		return nil, true, ""
	}
	typ, _ := syscall.GetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_TYPE)
	if (domain == syscall.AF_INET || domain == syscall.AF_INET6) && typ == syscall.SOCK_STREAM {
		var info tcpInfo
		size := uint32(unsafe.Sizeof(info))
		_, _, errno := syscall.Syscall6(syscall.SYS_GETSOCKOPT, uintptr(fd), syscall.IPPROTO_TCP, syscall.TCP_INFO,
			uintptr(unsafe.Pointer(&info)), uintptr(unsafe.Pointer(&size)), 0)
		if errno != 0 {
			return nil, true, ""
		}
		switch info.State {
		case tcpListen:
			if info.Unacked > 0 {
				return nil, false, "a listener has " + strconv.Itoa(int(info.Unacked)) + " connections waiting to be accepted"
			}
			return nil, true, ""
		case tcpClose:
			return nil, true, ""
		case tcpEstablished:
		default:
			name, ok := tcpStates[info.State]
			if !ok {
				name = strconv.Itoa(int(info.State))
			}
			return nil, false, "a TCP socket is in state " + name
		}
		if n, err := ioctlInt(fd, syscall.TIOCINQ); err == nil && n > 0 {
			return nil, false, "a TCP socket holds " + strconv.Itoa(n) + " unread bytes"
		}
		c := &tcpConn{info: info, full: size >= uint32(unsafe.Sizeof(info))}
		c.outq, _ = ioctlInt(fd, syscall.TIOCOUTQ)
		ls, err1 := syscall.Getsockname(fd)
		rs, err2 := syscall.Getpeername(fd)
		if err1 != nil || err2 != nil {
			return nil, true, "" // closed meanwhile
		}
		c.local, c.remote = addrPort(ls), addrPort(rs)
		return c, true, ""
	}
	if n, err := ioctlInt(fd, syscall.TIOCINQ); err == nil && n > 0 {
		return nil, false, "a socket holds " + strconv.Itoa(n) + " unread bytes"
	}
	if domain == syscall.AF_UNIX {
		if cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED); err == nil && cred.Pid != 0 && int(cred.Pid) != pid {
			return nil, false, "a Unix socket is connected to process " + strconv.Itoa(int(cred.Pid))
		}
	}
	return nil, true, ""
}

func ioctlInt(fd int, req uintptr) (int, error) {
	var n int32
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), req, uintptr(unsafe.Pointer(&n)))
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

func addrPort(sa syscall.Sockaddr) netip.AddrPort {
	switch a := sa.(type) {
	case *syscall.SockaddrInet4:
		return netip.AddrPortFrom(netip.AddrFrom4(a.Addr), uint16(a.Port))
	case *syscall.SockaddrInet6:
		return netip.AddrPortFrom(netip.AddrFrom16(a.Addr).Unmap(), uint16(a.Port))
	}
	return netip.AddrPort{}
}
