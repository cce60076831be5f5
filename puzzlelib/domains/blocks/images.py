"""Block puzzles' images: the image of a relaxed position under a pattern database's map
g (the pieces it keeps, as a compact key, and for the line and cell maps the size-2 pieces
counted per region), written by the lookup and by the builds of :mod:`puzzlelib.pdb.blocks`.
"""

import numpy as np

from ...core.contract import domain_fn
from .encoding import EMPTY, H_L, H_R, ONE, V_B, V_T
from .packing import code_tables, pack_cells

#: The code of an image's cells (one for every board and map): 1 bit for a 1x1 piece (the
#: commonest symbol in a relaxed position, and what the maps turn forgotten pieces into), 3 bits
#: for the others. One table per map mode: full keeps every cell; blank writes an empty cell as a
#: 1x1; line and cell write each cell of a 1x2 or 2x1 piece as a 1x1 (the pieces are counted
#: per region instead).
IMAGE_LENGTHS = (3, 1, 3, 3, 3)
IMAGE_ENC = np.stack([
    code_tables(IMAGE_LENGTHS)[0],
    code_tables(IMAGE_LENGTHS, merge=((EMPTY, ONE),))[0],
    code_tables(IMAGE_LENGTHS, merge=tuple((c, ONE) for c in (H_L, H_R, V_T, V_B)))[0],
])


def image_symbols(counts, mode):
    """How many of each symbol (empty, 1x1, 1x2, 2x1, 2x2) an image under map ``mode`` holds,
    given the relaxed puzzle's ``counts`` of them."""
    e, one, h, v, b = counts
    if mode == 1:
        return (0, one + e, h, v, b)
    if mode == 2:
        return (e, one + 2 * h + 2 * v, 0, 0, b)
    return (e, one, h, v, b)


@domain_fn
def write_image(relaxed, i, mode, region_of, n, out, off, cell_bytes):
    """The image under PDB ``i``'s map g of a relaxed position (``n`` cell codes), written to
    ``out[off:]`` (which must be zero beyond the cells): the PDB's number, the key of the cells
    as the map keeps them (``cell_bytes`` bytes, :data:`IMAGE_ENC`), then for the line and cell
    maps one byte per region: its kept 1x2 pieces in the low four bits, its 2x1 pieces in the
    high four (a region of at most 9 cells never holds more than 9).

    ``mode``: 0 full (every cell), 1 blank (empties not recorded), 2 line or cell (size-2
    pieces only as counts per region of ``region_of``)."""
    out[off] = i
    pack_cells(relaxed, n, IMAGE_ENC[mode], out, off + 1, cell_bytes)
    if mode == 2:
        base = off + 1 + cell_bytes
        for x in range(n):
            v = relaxed[x]
            if v == H_L:
                out[base + region_of[x]] += 1
            elif v == V_T:
                out[base + region_of[x]] += 16
