"""What the socket tests of verify/serve/ share: a request as RESP's wire bytes, and a free port on
127.0.0.1 for a server they start themselves."""
import socket


def encode(words):
    """A request as a RESP array of bulk strings (words are bytes or anything str() writes)."""
    out = b"*%d\r\n" % len(words)
    for w in words:
        w = w if isinstance(w, bytes) else str(w).encode()
        out += b"$%d\r\n%s\r\n" % (len(w), w)
    return out


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port
