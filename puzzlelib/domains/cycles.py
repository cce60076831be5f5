"""Strings of blank moves a depth-first search may skip, and the automaton that skips them.

On a sliding-tile board many strings of moves lead to one position: the blank going three times
around a 2x2 square puts every tile back, so the three quarters one way and the three the other
way (six moves each) end alike. A depth-first search that only never undoes its last move walks
both, and everything below both. Taylor and Korf (1993) list such strings once and skip them
with a finite automaton over the moves; this module finds them by its own enumeration.

**Which strings are skipped.** Strings are ordered by length, then move by move in move-number
order (up, down, left, right). A string ``S`` is *redundant* when a smaller string ``S'`` leaves
every tile and the blank where ``S`` does, starting from the same position, and its blank stays
inside the rectangle that ``S``'s blank covers. Then wherever ``S`` can be played, so can ``S'``
(the board holds that rectangle), and a solution that contains ``S`` becomes a solution no
longer than it and smaller when ``S`` is replaced by ``S'``. The smallest of a position's
shortest solutions therefore contains no redundant string: a search that never plays one still
finds an optimal solution, on any board, with distinct or repeated labels. Undoing the last
move is the shortest such string (``S'`` empty). Counting *every* optimal solution needs every
path, so it cannot skip anything more than that.

**How they are found.** On a board larger than any string can leave, with every tile distinct,
each string of up to ``max_len`` moves is played from the centre, shortest first and in order,
skipping strings that contain a redundant string already found. A string whose resulting board
(a 64-bit hash of the moved tiles, then played again move by move to confirm) and whose
rectangle match those of a string played before it is redundant. The automaton is the
Aho-Corasick machine of the redundant strings that contain no shorter redundant one: its state
after a path says which of their beginnings the path ends with, and a move that would complete
one is refused.
"""

import io
import lzma
import warnings
from pathlib import Path

import numpy as np

from ..core import store
from ..core.jit import jit

#: Moves of the blank: ``(row, column)`` steps of up, down, left, right (the sliding board's
#: move numbers).
STEPS = np.array([[-1, 0], [1, 0], [0, -1], [0, 1]], dtype=np.int64)

#: The longest strings looked at by default: the automaton then has some tens of thousands of
#: states, small enough to stay in a core's cache (benchmarks/RESULTS.md, "The 24-puzzle").
DEFAULT_MAX_LEN = 14
#: Strings are kept in 64-bit codes, two bits a move.
MAX_LEN = 30


@jit
def _mix(x):
    """splitmix64: the random words of the board hash, the same on every machine."""
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = x
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@jit
def _automaton(codes, lens):
    """The Aho-Corasick machine of the strings ``codes[i]`` (``lens[i]`` moves, move ``j`` in bits
    ``2j`` and ``2j + 1``): ``T[q, m]``, the state after move ``m`` in state ``q`` (state 0: no
    move yet), or -1 when the move completes one of the strings. States that complete one are
    left out."""
    cap = 1
    for i in range(lens.shape[0]):
        cap += lens[i]
    goto = np.full((cap, 4), -1, dtype=np.int64)
    done = np.zeros(cap, dtype=np.bool_)
    n = 1
    for i in range(codes.shape[0]):
        q = 0
        for j in range(lens[i]):
            m = (codes[i] >> np.int64(2 * j)) & 3
            if goto[q, m] < 0:
                goto[q, m] = n
                n += 1
            q = goto[q, m]
        done[q] = True
    fail = np.zeros(n, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    head = tail = 0
    for m in range(4):
        r = goto[0, m]
        if r < 0:
            goto[0, m] = 0
        else:
            queue[tail] = r
            tail += 1
    while head < tail:  # breadth first: a state's fail state is shallower, so seen before it
        q = queue[head]
        head += 1
        if done[fail[q]]:
            done[q] = True
        for m in range(4):
            r = goto[q, m]
            if r < 0:
                goto[q, m] = goto[fail[q], m]
            else:
                fail[r] = goto[fail[q], m]
                queue[tail] = r
                tail += 1
    new = np.full(n, -1, dtype=np.int64)
    k = 0
    for q in range(n):
        if not done[q]:
            new[q] = k
            k += 1
    out = np.empty((k, 4), dtype=np.int32)
    for q in range(n):
        if new[q] >= 0:
            for m in range(4):
                out[new[q], m] = new[goto[q, m]]
    return out


@jit
def _play(code, length, board, w, centre):
    """Play a string on ``board`` (cells hold tile numbers; the blank is tile ``centre`` and
    starts there). Returns the blank's cell."""
    b = centre
    for j in range(length):
        m = (code >> np.int64(2 * j)) & 3
        t = b + STEPS[m, 0] * w + STEPS[m, 1]
        board[b] = board[t]
        board[t] = centre
        b = t
    return b


@jit
def _same_end(a, la, b, lb, w, centre):
    """Whether two strings leave every tile and the blank alike (played in full)."""
    x = np.arange(w * w)
    y = np.arange(w * w)
    if _play(a, la, x, w, centre) != _play(b, lb, y, w, centre):
        return False
    for i in range(w * w):
        if x[i] != y[i]:
            return False
    return True


@jit
def _term(z, cells, i, v):
    return z[i * cells + v] if v != i else np.uint64(0)


@jit
def _inside(a, b):
    """Whether the rectangle packed in ``a`` (rows lo, hi, columns lo, hi: a byte each) lies in
    ``b``'s."""
    return ((a & 255) >= (b & 255) and ((a >> 8) & 255) <= ((b >> 8) & 255)
            and ((a >> 16) & 255) >= ((b >> 16) & 255) and (a >> 24) <= (b >> 24))


@jit
def _find(max_len):
    """The redundant strings of up to ``max_len`` moves that contain no shorter one (see the
    module): their codes, lengths, and for each the smaller string that replaces it."""
    w = 2 * max_len + 3
    cells = w * w
    centre = (max_len + 1) * w + max_len + 1
    z = np.empty(cells * cells, dtype=np.uint64)
    s = np.uint64(12345)
    for i in range(cells * cells):
        s = _mix(s)
        z[i] = s
    # open-addressing table of the strings played so far: hash, code, length, rectangle
    size = 1 << 16
    keys = np.zeros(size, dtype=np.uint64)
    used = np.zeros(size, dtype=np.bool_)
    tcode = np.zeros(size, dtype=np.int64)
    tlen = np.zeros(size, dtype=np.int64)
    tbox = np.zeros(size, dtype=np.int64)
    n_used = 0
    f_code = np.zeros(16, dtype=np.int64)
    f_len = np.zeros(16, dtype=np.int64)
    f_alt = np.zeros(16, dtype=np.int64)
    f_alt_len = np.zeros(16, dtype=np.int64)
    n_f = 0
    board = np.arange(cells)
    c0 = centre // w
    box0 = c0 | (c0 << 8) | (c0 << 16) | (c0 << 24)
    # the empty string
    keys[0], used[0], tbox[0] = np.uint64(0), True, box0
    n_used = 1
    for k in range(1, max_len + 1):
        T = _automaton(f_code[:n_f], f_len[:n_f])
        qs = np.zeros(k + 1, dtype=np.int64)
        nxt = np.zeros(k + 1, dtype=np.int64)
        bs = np.empty(k + 1, dtype=np.int64)
        hs = np.empty(k + 1, dtype=np.uint64)
        boxes = np.empty(k + 1, dtype=np.int64)
        codes = np.zeros(k + 1, dtype=np.int64)
        bs[0], hs[0], boxes[0] = centre, np.uint64(0), box0
        d = 0
        while d >= 0:
            m = nxt[d]
            if m == 4 or d == k:
                if d > 0:  # take back the move that led here
                    b, t = bs[d], bs[d - 1]  # the blank's cell, and the moved tile's
                    board[b] = board[t]
                    board[t] = centre
                d -= 1
                continue
            nxt[d] = m + 1
            q = T[qs[d], m]
            if q < 0:
                continue
            b = bs[d]
            t = b + STEPS[m, 0] * w + STEPS[m, 1]
            x = board[t]
            # the hash: z[cell * cells + tile] for every tile (and the blank) off its cell
            h = (hs[d] ^ _term(z, cells, b, centre) ^ _term(z, cells, t, x)
                 ^ _term(z, cells, b, x) ^ _term(z, cells, t, centre))
            board[b] = x
            board[t] = centre
            r, c = t // w, t % w
            bx = boxes[d]
            lo_r, hi_r = min(bx & 255, r), max((bx >> 8) & 255, r)
            lo_c, hi_c = min((bx >> 16) & 255, c), max(bx >> 24, c)
            d += 1
            qs[d], nxt[d], bs[d], hs[d] = q, 0, t, h
            boxes[d] = lo_r | (hi_r << 8) | (lo_c << 16) | (hi_c << 24)
            codes[d] = codes[d - 1] | (m << np.int64(2 * (d - 1)))
            if d < k:
                continue
            # a whole string of k moves: played before by a smaller string?
            key = h
            mask = size - 1
            i = np.int64(key & np.uint64(mask))
            alt = -1
            while used[i]:
                if keys[i] == key and _inside(tbox[i], boxes[d]) and _same_end(
                        tcode[i], tlen[i], codes[d], k, w, centre):
                    alt = i
                    break
                i = (i + 1) & mask
            if alt >= 0:
                if n_f == f_code.shape[0]:
                    f_code = np.concatenate((f_code, np.zeros(n_f, dtype=np.int64)))
                    f_len = np.concatenate((f_len, np.zeros(n_f, dtype=np.int64)))
                    f_alt = np.concatenate((f_alt, np.zeros(n_f, dtype=np.int64)))
                    f_alt_len = np.concatenate((f_alt_len, np.zeros(n_f, dtype=np.int64)))
                f_code[n_f], f_len[n_f] = codes[d], k
                f_alt[n_f], f_alt_len[n_f] = tcode[alt], tlen[alt]
                n_f += 1
                continue
            keys[i], used[i], tcode[i], tlen[i], tbox[i] = key, True, codes[d], k, boxes[d]
            n_used += 1
            if 2 * n_used > size:  # keep the table at most half full
                size *= 2
                nk = np.zeros(size, dtype=np.uint64)
                nu = np.zeros(size, dtype=np.bool_)
                nc = np.zeros(size, dtype=np.int64)
                nl = np.zeros(size, dtype=np.int64)
                nb = np.zeros(size, dtype=np.int64)
                for j in range(keys.shape[0]):
                    if used[j]:
                        e = np.int64(keys[j] & np.uint64(size - 1))
                        while nu[e]:
                            e = (e + 1) & (size - 1)
                        nk[e], nu[e], nc[e], nl[e], nb[e] = keys[j], True, tcode[j], tlen[j], \
                            tbox[j]
                keys, used, tcode, tlen, tbox = nk, nu, nc, nl, nb
    return f_code[:n_f], f_len[:n_f], f_alt[:n_f], f_alt_len[:n_f]


def redundant_strings(max_len=DEFAULT_MAX_LEN):
    """The redundant strings of up to ``max_len`` moves that contain no shorter redundant string
    (see the module), in the order found: ``(codes, lengths, alternatives, their lengths)``, a
    string's move ``j`` in bits ``2j`` and ``2j + 1`` of its code."""
    if not 1 <= max_len <= MAX_LEN:
        raise ValueError(f"max_len must be 1 to {MAX_LEN}, got {max_len}")
    return _find(int(max_len))


def move_automaton(max_len=DEFAULT_MAX_LEN):
    """The automaton that skips the redundant strings of up to ``max_len`` moves: an ``int32``
    table ``T[q, m]`` (see :func:`_automaton`); a search starts in state 0."""
    codes, lens, _, _ = redundant_strings(max_len)
    return _automaton(codes, lens)


def decode(code, length):
    """A string's moves as a list of move numbers."""
    return [(int(code) >> (2 * j)) & 3 for j in range(int(length))]


#: The automata made in this process, by ``max_len``.
_MADE = {}
#: The version of the automaton's making, in its cache entry and its shipped file's name.
VERSION = 1
#: The automaton of :data:`DEFAULT_MAX_LEN`, made once and shipped with the package (making it
#: compiles and runs for tens of seconds, the largest share of a first depth-first search);
#: tests/test_cycles.py checks that it is the one :func:`move_automaton` makes. An ``.npy``
#: file, xz-compressed (its check finds a damaged file, which is then made anew).
SHIPPED = Path(__file__).with_name(f"grid-{DEFAULT_MAX_LEN}-v{VERSION}.npy.xz")


def shipped_automaton(path=SHIPPED):
    """The shipped automaton (see :data:`SHIPPED`), or ``None`` when missing or damaged."""
    try:
        table = np.load(io.BytesIO(lzma.decompress(path.read_bytes())), allow_pickle=False)
    except (OSError, lzma.LZMAError, ValueError, EOFError):
        return None
    if table.dtype != np.int32 or table.ndim != 2 or table.shape[1] != 4:
        return None
    return table


def ship(path=SHIPPED):
    """Make the automaton of :data:`DEFAULT_MAX_LEN` and write it where it is shipped (after a
    change to its making, with :data:`VERSION` raised)."""
    buf = io.BytesIO()
    np.save(buf, np.ascontiguousarray(move_automaton(DEFAULT_MAX_LEN), dtype=np.int32))
    path.write_bytes(lzma.compress(buf.getvalue(), preset=9 | lzma.PRESET_EXTREME))


def cached_automaton(max_len=DEFAULT_MAX_LEN):
    """:func:`move_automaton`: the shipped one for :data:`DEFAULT_MAX_LEN`, else kept in the
    package's cache folder (seconds to make the first time, a millisecond to read after)."""
    if max_len in _MADE:
        return _MADE[max_len]
    if max_len == DEFAULT_MAX_LEN:
        table = shipped_automaton()
        if table is not None:
            _MADE[max_len] = table
            return table
        if SHIPPED.exists():
            warnings.warn(f"{SHIPPED} is damaged: making the automaton anew")
    path = store.cache_root() / "moves" / f"grid-{int(max_len)}.bin"
    expect = {"kind": "grid move automaton", "max_len": int(max_len), "version": VERSION}
    got = store.read(path, expect, "move automaton")
    if got is None:
        table = move_automaton(max_len)
        try:
            store.write(path, expect, [table], sync=False)
        except OSError:
            pass  # a cache folder that cannot be written: made again by the next process
    else:
        table = got[1][0]
    _MADE[max_len] = table
    return table
