"""Block puzzles' compact keys: a position in a few bytes (a prefix code of its pieces in
reading order), packed and unpacked by the kernels for the hash sets of the searches, and the
Huffman code tables of a board.
"""

import heapq

import numpy as np

from ...core.contract import domain_fn
from .encoding import B_BL, B_BR, B_TL, B_TR, EMPTY, H_L, H_R, ONE, V_B, V_T

# ---------------------------------------------------------------------------------------------
# Compact keys: a position in a few bytes, for the hash sets of the searches.
# ---------------------------------------------------------------------------------------------
#
# Read the cells in row-major order, skipping those covered by a piece already read: each cell
# left is empty or the top-left cell of a piece. A position is therefore a sequence of symbols,
# one per piece or empty cell, out of five (empty, 1x1, 1x2, 2x1, 2x2), and decoding gives the
# position back: it fills each piece's other cells and goes on to the next cell not filled.
# Each symbol is written with a prefix code. For a board's keys the code is Huffman's for how
# many pieces of each shape (and empty cells) the board has, which no move changes, so every
# position of the board has a key of the same length: 26 bits for the classic 4x5, 51 for the
# 6x7 start in data/blocks (7 bytes, against 43 bytes of cell codes), 64 for the 7x8 start.
# Every board up to 8 x 9 fits 128 bits (at most 117, for 18 empty cells, 18 1x1, nine 1x2 and
# nine 2x1 pieces: checked over every mix of shapes). Bits go into the key from the lowest bit
# of its first byte up.

#: The first cell of each symbol: empty, 1x1, 1x2, 2x1, 2x2.
SYMBOLS = (EMPTY, ONE, H_L, V_T, B_TL)
COVERED = 255  # a cell not decoded yet


def prefix_lengths(weights):
    """Huffman code lengths of the five symbols, given how often each occurs (at most 4 bits;
    a symbol that never occurs still gets a code)."""
    heap = [(int(w), i, [i]) for i, w in enumerate(weights)]
    heapq.heapify(heap)
    lengths = [0] * len(weights)
    tie = len(weights)
    while len(heap) > 1:
        w1, _, a = heapq.heappop(heap)
        w2, _, b = heapq.heappop(heap)
        for i in a + b:
            lengths[i] += 1
        heapq.heappush(heap, (w1 + w2, tie, a + b))
        tie += 1
    return lengths


def code_tables(lengths, merge=()):
    """The kernel's tables of a prefix code with the given lengths per symbol (canonical code):
    ``enc[cell code]`` = ``(bits << 8) | length`` for the first cell of a piece (0 for the other
    cells, which the key skips) and ``dec[next 4 bits]`` = ``(cell code << 8) | length``.
    ``merge``: pairs ``(a, b)`` of cell codes; code ``a`` is written as ``b`` (for the maps of
    pattern databases, which forget some pieces)."""
    order = sorted(range(len(SYMBOLS)), key=lambda i: (lengths[i], i))
    enc = np.zeros(10, dtype=np.int64)
    dec = np.zeros(16, dtype=np.int64)
    code, prev = 0, lengths[order[0]]
    for i in order:
        code <<= lengths[i] - prev
        prev = lengths[i]
        # canonical codes are read first bit first; the key holds the first bit lowest
        bits = int(format(code, f"0{prev}b")[::-1], 2)
        enc[SYMBOLS[i]] = (bits << 8) | prev
        for v in range(16):
            if v & ((1 << prev) - 1) == bits:
                dec[v] = (SYMBOLS[i] << 8) | prev
        code += 1
    for a, b in merge:
        enc[a] = enc[b]
    return enc, dec


def key_bits(counts, lengths):
    """Bits of a key: ``counts`` and ``lengths`` per symbol."""
    return sum(int(k) * int(b) for k, b in zip(counts, lengths))


@domain_fn
def pack_cells(cells, n, enc, key, off, key_len):
    """Write the key of ``cells[:n]`` to ``key[off:off + key_len]`` (zero-padded)."""
    acc = 0
    nb = 0
    k = off
    for x in range(n):
        e = enc[cells[x]]  # 0 for a covered cell: adds nothing (no branch to mispredict)
        acc |= (e >> 8) << nb
        nb += e & 255
        if nb >= 32:
            for _ in range(4):
                key[k] = acc & 255
                acc >>= 8
                k += 1
            nb -= 32
    while nb > 0:
        key[k] = acc & 255
        acc >>= 8
        k += 1
        nb -= 8
    while k < off + key_len:
        key[k] = 0
        k += 1


@domain_fn
def unpack_cells(key, key_len, n, cols, dec, cells):
    """The cell codes (``cells[:n]``) of the key ``key[:key_len]``."""
    for x in range(n):
        cells[x] = COVERED
    acc = 0
    nb = 0
    k = 0
    for x in range(n):
        if cells[x] != COVERED:
            continue
        while nb < 4:
            if k < key_len:
                acc |= np.int64(key[k]) << nb
            k += 1
            nb += 8
        d = dec[acc & 15]
        code = d >> 8
        ln = d & 255
        acc >>= ln
        nb -= ln
        cells[x] = code
        if code == H_L:
            cells[x + 1] = H_R
        elif code == V_T:
            cells[x + cols] = V_B
        elif code == B_TL:
            cells[x + 1] = B_TR
            cells[x + cols] = B_BL
            cells[x + cols + 1] = B_BR


@domain_fn
def _pack(state, p, key):
    # with a heuristic, its byte ends the key (cheaper to keep than to look up again)
    if p.n_pdbs > 0:
        pack_cells(state, p.n_cells, p.code_enc, key, 0, p.key_len - 1)
        key[p.key_len - 1] = state[p.n_cells]
    else:
        pack_cells(state, p.n_cells, p.code_enc, key, 0, p.key_len)


@domain_fn
def _unpack(key, p, state):
    if p.n_pdbs > 0:
        unpack_cells(key, p.key_len - 1, p.n_cells, p.cols, p.code_dec, state)
        state[p.n_cells] = key[p.key_len - 1]
    else:
        unpack_cells(key, p.key_len, p.n_cells, p.cols, p.code_dec, state)
        state[p.n_cells] = 0
