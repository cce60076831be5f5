"""Block puzzles' pattern-database heuristic: relax a position (split the pieces a database
does not keep), map it by g, and look its image up in the database's hash set; the largest value
over the databases is the heuristic byte a state carries.
"""

import numpy as np

from ...core.contract import domain_fn
from ...core.hashset import find, new_table
from ...core.jit import jit
from .encoding import H_L, H_R, ONE, PI_CELL_BYTES, PI_KEEP_H, PI_KEEP_V, PI_MODE, V_B, V_T
from .images import write_image

@domain_fn
def _first_subset(idx, off, k):
    for t in range(k):
        idx[off + t] = t


@domain_fn
def _next_subset(idx, off, k, n):
    """Advance ``idx[off:off+k]`` (a sorted k-subset of 0..n-1) to the next one; False after
    the last."""
    i = k - 1
    while i >= 0 and idx[off + i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    idx[off + i] += 1
    for j in range(i + 1, k):
        idx[off + j] = idx[off + j - 1] + 1
    return True


@jit
def _pdb_value(state, i, p, nh, nv):
    """PDB ``i``'s value of ``state``: relax it (split the 1x2 and 2x1 pieces the PDB does not
    keep) and look up its image. A PDB that keeps only some pieces of a shape (3 of ten 1x2
    pieces, say) may keep any of them: a solution moves every piece, so keeping any chosen ones
    whole and splitting the rest turns it into a relaxed solution no longer than itself. Each
    choice's value is therefore a lower bound, and so is the greatest of them, which is what
    this returns (255, no relaxed goal reachable, for a position no choice can solve).
    ``scratch[:nh]`` and ``scratch[n:n+nv]`` hold the top-left cells of the 1x2 and 2x1
    pieces."""
    n = p.n_cells
    kh = min(p.pdb_info[i, PI_KEEP_H], nh)
    kv = min(p.pdb_info[i, PI_KEEP_V], nv)
    mode = p.pdb_info[i, PI_MODE]
    idx = p.scratch  # [2n, 3n): the kept 1x2 pieces; [3n, 4n): the kept 2x1 pieces
    buf = p.scratch8  # [0, n): relaxed cells; [n, n + image_len): the image
    img_len = p.image_len
    best = 0
    _first_subset(idx, 2 * n, kh)
    while True:
        _first_subset(idx, 3 * n, kv)
        while True:
            for x in range(n):
                v = state[x]
                buf[x] = ONE if (H_L <= v <= V_B) else v
            for t in range(kh):
                x = idx[idx[2 * n + t]]
                buf[x] = H_L
                buf[x + 1] = H_R
            for t in range(kv):
                x = idx[n + idx[3 * n + t]]
                buf[x] = V_T
                buf[x + p.cols] = V_B
            for x in range(img_len):
                buf[n + x] = 0
            write_image(buf, i, mode, p.region_of[i], n, buf, n, p.pdb_info[i, PI_CELL_BYTES])
            j = find(p.pdb_slots, p.pdb_pool, buf[n: n + img_len])
            val = 255 if j < 0 else np.int64(p.pdb_values[j])  # 255: no goal even relaxed
            if val == 255:
                return val  # this choice cannot reach a goal: nor can the position
            if val > best:
                best = val
            if not _next_subset(idx, 3 * n, kv, nv):
                break
        if not _next_subset(idx, 2 * n, kh, nh):
            break
    return best


@jit
def _pdb_heuristic(state, p):
    """The largest value over the PDBs (each a lower bound, so their maximum is one).

    Works in scratch arrays held by ``params`` (no allocation per call), so one ``params`` must
    not be used by two threads at once; the API runs block-puzzle searches on one thread."""
    n = p.n_cells
    nh = 0
    nv = 0
    for x in range(n):
        if state[x] == H_L:
            p.scratch[nh] = x
            nh += 1
        elif state[x] == V_T:
            p.scratch[n + nv] = x
            nv += 1
    best = 0
    for i in range(p.n_pdbs):
        val = _pdb_value(state, i, p, nh, nv)
        if val > best:
            best = val
    return best


@jit
def set_heuristic(state, p):
    """Store the heuristic value of a freshly built state in its last byte."""
    state[p.n_cells] = _pdb_heuristic(state, p) if p.n_pdbs > 0 else 0


def _no_pdb_fields(n_cells):
    slots, pool = new_table(1, 1)
    return (0, 1, np.zeros((1, 4), dtype=np.int64), np.zeros((1, n_cells), dtype=np.int64),
            slots, pool, np.zeros(1, dtype=np.uint8))
