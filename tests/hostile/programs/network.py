# Network and DNS with network off: every attempt must fail.
import socket
def attempt(name, fn):
    try:
        fn()
        print(name, "CONNECTED")
    except OSError as e:
        print(name, "blocked", type(e).__name__)
attempt("tcp", lambda: socket.create_connection(("1.1.1.1", 80), timeout=3).close())
attempt("tcp6", lambda: socket.create_connection(("2606:4700:4700::1111", 80), timeout=3).close())
attempt("dns", lambda: socket.getaddrinfo("example.com", 80))
def udp():
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.settimeout(2)
    s.sendto(b"\0" * 12, ("8.8.8.8", 53))
    s.recvfrom(512)
attempt("udp", udp)
def raw():
    socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP)
attempt("raw", raw)
def packet():
    socket.socket(socket.AF_PACKET, socket.SOCK_RAW)
attempt("packet", packet)
