"""puzzlelib.animation: GIFs and players of solutions for every kind of puzzle, a search stepped
through one expansion at a time, and the plots of frontiers, IDA*'s passes and A*'s sets."""

import dataclasses
import io
from collections import deque, namedtuple

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from puzzlelib import (BlockPuzzle, PancakePuzzle, PuzzleError, RotationPuzzle,  # noqa: E402
                       SlidingPuzzle, layers, solve)
from puzzlelib.animation import (animate, frames_animation, frames_player,  # noqa: E402
                                 player, plot_frontiers, plot_idastar_passes, plot_open_closed,
                                 step_through, steps_animation, steps_figure, toy_counts,
                                 toy_frontiers)

EIGHT = SlidingPuzzle("3x3")
EIGHT_START = "8 6 7 2 5 4 3 0 1"  # 31 moves
BLOCKS = "aDD\nbDD\nc..\nde."  # 4x3, the 2x2 piece to the left half's middle: 10 moves

_SOLVED = {}


def solved(kind):
    """Each kind's solved result, searched once for the whole file."""
    if kind not in _SOLVED:
        if kind == "sliding":
            res = solve(EIGHT, EIGHT_START, method="bidir")
        elif kind == "rotation":
            res = solve(RotationPuzzle(3, 3), [[9, 4, 3], [2, 1, 8], [7, 6, 5]])
        elif kind == "blocks":
            res = solve(BlockPuzzle(BLOCKS, goal=(2, 0)), BLOCKS)
        else:
            res = solve(PancakePuzzle(8), "3 1 5 2 8 6 4 7")
        assert res.length > 0
        _SOLVED[kind] = res
    return _SOLVED[kind]


KINDS = ("sliding", "rotation", "blocks", "pancake")


def is_goal(puzzle, position):
    return bool(puzzle.fns.is_goal(puzzle.encode(position, what="position"), puzzle.params))


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


# ---- animate -------------------------------------------------------------------------------

def test_a_31_move_solution_is_a_small_gif_of_32_frames():
    res = solved("sliding")
    anim = animate(res)
    assert res.length == 31
    assert anim.gif[:4] == b"GIF8"
    with Image.open(io.BytesIO(anim.gif)) as im:
        assert im.n_frames == anim.n_frames == 32
        durations = []
        for k in range(im.n_frames):
            im.seek(k)
            durations.append(im.info["duration"])
    assert durations[0] > durations[1] and durations[-1] > durations[1]  # the ends held
    assert len(anim.gif) < 150_000
    assert anim.titles[:2] == ["start", f"1/31 {res.moves[0]}"]
    assert anim.titles[-1] == f"31/31 {res.moves[-1]}"
    assert anim.positions[-1] == [1, 2, 3, 4, 5, 6, 7, 8, 0]


def test_the_gif_displays_as_an_img_every_viewer_renders(tmp_path):
    anim = animate(solved("rotation"), fps=2)
    bundle = anim._repr_mimebundle_()
    assert bundle["text/html"].startswith('<img src="data:image/gif;base64,')
    assert "frames" in bundle["text/plain"]
    path = anim.save(tmp_path / "rotation.gif")
    assert path.read_bytes() == anim.gif


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_of_puzzle_animates_to_its_goal(kind):
    res = solved(kind)
    anim = animate(res, size=20)
    assert anim.n_frames == res.length + 1 == len(anim.positions)
    assert is_goal(res.puzzle, anim.positions[-1])
    assert not is_goal(res.puzzle, anim.positions[0])


def test_positions_of_a_puzzle_animate_with_their_own_titles():
    positions = solved("sliding").positions()[:4]
    anim = animate(EIGHT, positions, titles=["a", "b", "c", "d"], marks=False)
    assert anim.n_frames == 4 and anim.titles == ["a", "b", "c", "d"]
    assert animate(EIGHT, positions[:1]).n_frames == 1


@pytest.mark.parametrize("call, words", [
    (lambda: animate(EIGHT, []), "empty"),
    (lambda: animate(EIGHT), "give its positions"),
    (lambda: animate("3x3", ["1 2 3 4 5 6 7 8 0"]), "give a Result or a Puzzle"),
    (lambda: animate(dataclasses.replace(solved("sliding"), length=-1, moves=None,
                                         status="no solution")), "no solution"),
    (lambda: animate(EIGHT, ["1 2 3 4 5 6 7 8 0"] * 2, titles=["x"]), "1 titles for 2"),
    (lambda: animate(solved("sliding"), fps=0), "fps"),
])
def test_bad_input_is_one_clear_line(call, words):
    with pytest.raises(PuzzleError, match=words) as err:
        call()
    assert "\n" not in str(err.value)


# ---- player --------------------------------------------------------------------------------

_PLAYERS = {}


def a_player(kind):
    if kind not in _PLAYERS:
        _PLAYERS[kind] = player(solved(kind), size=20)
    p = _PLAYERS[kind]
    p.slider.value = 0
    return p


def test_the_slider_changes_the_position_and_the_image():
    p = a_player("sliding")
    res = solved("sliding")
    first_image, first = p.image, p.position
    assert first_image[:8] == b"\x89PNG\r\n\x1a\n"
    p.slider.value = 5
    assert p.index == 5 and p.position == res.positions()[5] != first
    assert p.image != first_image
    assert p.caption == f"5/31 {res.moves[4]}" and p.caption in p.label.value
    p.slider.value = 0
    assert p.image == first_image  # the same frame, from the cache


def test_back_and_forward_step_by_one_and_stop_at_the_ends():
    p = a_player("sliding")
    assert p.back() == 0 and p.index == 0
    assert p.forward() == 1 and p.forward() == 2 and p.back() == 1
    p.slider.value = p.slider.max
    assert p.forward() == p.slider.max == 31
    p.forward_button.click()
    assert p.index == 31
    p.back_button.click()
    assert p.index == 30


@pytest.mark.parametrize("kind", KINDS)
def test_the_last_frame_of_every_player_is_the_goal(kind):
    p = a_player(kind)
    p.slider.value = p.slider.max
    assert p.n_frames == solved(kind).length + 1
    assert is_goal(solved(kind).puzzle, p.position)
    assert p.image[:4] == b"\x89PNG"


def test_the_player_displays_as_its_widget():
    bundle = a_player("pancake")._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert "player of 9 frames" in bundle["text/plain"]
    # the picture keeps its own size: a box stretches its children to the page's width unless
    # told otherwise (seen in JupyterLab: a 211-pixel board drawn 1,200 pixels wide)
    assert a_player("pancake").widget.layout.align_items == "flex-start"


# ---- a search step by step -----------------------------------------------------------------

#: The record a teaching search yields, as a stand-in with the same fields.
Step = namedtuple("Step", "n state g h bound frontier seen side")


def bfs_steps(start, limit=12):
    """Breadth-first search's first ``limit`` expansions on the 8-puzzle, recorded."""
    start = tuple(start)
    depth, queue, steps = {start: 0}, deque([start]), []
    while queue and len(steps) < limit:
        state = queue.popleft()
        for _, child in EIGHT.neighbours(list(state)):
            child = tuple(child)
            if child not in depth:
                depth[child] = depth[state] + 1
                queue.append(child)
        steps.append(Step(len(steps), state, depth[state], 0, None, tuple(queue), len(depth),
                          "forward"))
    return steps


STEPS = bfs_steps([1, 2, 3, 4, 0, 5, 6, 7, 8])


def test_stepping_through_shows_each_expansion():
    p = step_through(EIGHT, STEPS, frontier=4)
    assert p.n_frames == len(STEPS)
    images = set()
    for k in (0, 3, 7):
        p.slider.value = k
        assert p.position == STEPS[k].state
        assert f"expansion {k}:" in p.caption and f"seen={STEPS[k].seen}" in p.caption
        images.add(p.image)
    assert len(images) == 3
    with pytest.raises(PuzzleError, match="empty"):
        step_through(EIGHT, [])


def test_steps_as_a_figure_and_a_gif():
    fig = steps_figure(EIGHT, STEPS, first=3, frontier=5)
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert any(t.startswith("#0  g=0  h=0  f=0") for t in texts)
    assert any(t.startswith("+") and t.endswith("more") for t in texts)
    anim = steps_animation(EIGHT, STEPS[:5], size=16)
    assert anim.gif[:4] == b"GIF8" and anim.n_frames == 5


# ---- any drawing, frame by frame -----------------------------------------------------------

def draw_bar(fig, i):
    """Frame ``i``: one bar ``i + 1`` high."""
    ax = fig.add_subplot()
    ax.bar([0], [i + 1])
    ax.set_ylim(0, 5)


def test_frames_become_a_gif_and_a_player_with_their_captions():
    anim = frames_animation(draw_bar, 4, captions=list("abcd"), size=(120, 90))
    assert anim.gif[:4] == b"GIF8" and anim.n_frames == 4 and anim.size == (120, 90)
    assert anim.titles == list("abcd") and anim.positions == [0, 1, 2, 3]
    p = frames_player(draw_bar, 4, captions=list("abcd"), size=(120, 90), static=False)
    first = p.image
    assert p.n_frames == 4 and p.caption == "a" and first[:4] == b"\x89PNG"
    p.forward()
    assert p.position == 1 and p.caption == "b" and p.image != first
    assert frames_player(draw_bar, 2, static=False).caption == "frame 0"


@pytest.mark.parametrize("call, words", [
    (lambda: frames_animation(draw_bar, 0), "at least 1"),
    (lambda: frames_animation("bars", 2), "draw must be a function"),
    (lambda: frames_animation(draw_bar, 2, captions=["x"]), "1 captions for 2"),
    (lambda: frames_player(draw_bar, 2, size=(8, 8), static=False), "at least 16"),
])
def test_bad_frames_are_one_clear_line(call, words):
    with pytest.raises(PuzzleError, match=words) as err:
        call()
    assert "\n" not in str(err.value)


# ---- plots ---------------------------------------------------------------------------------

def bar_heights(fig):
    return [[int(b.get_height()) for b in c] for c in fig.axes[0].containers]


def test_toy_frontiers_count_363_against_51():
    """A goal 5 levels down is met after 3 levels from the start and 2 from the goal (document
    000 counts 3 from each, 78)."""
    one, fwd, back = toy_counts(3, 5)
    assert sum(one) == 363 and sum(fwd) + sum(back) == 51
    assert [len(fwd) + len(back) for d in range(1, 9)
            for fwd, back in [toy_counts(2, d)[1:]]] == list(range(1, 9))
    fig = toy_frontiers(3, 5)
    assert bar_heights(fig) == [[3, 9, 27, 81, 243], [3, 9, 27], [3, 9]]
    assert "363" in fig.axes[0].texts[0].get_text() and "51" in fig.axes[0].texts[0].get_text()
    with pytest.raises(PuzzleError, match="branching"):
        toy_counts(0, 3)


def test_frontiers_of_a_real_search():
    res = solved("sliding")
    one = layers(EIGHT, EIGHT_START).counts
    fig = plot_frontiers(one, res.extra["forward_counts"], res.extra["backward_counts"], log=True)
    heights = bar_heights(fig)
    assert heights[0] == one and heights[1] == res.extra["forward_counts"]
    assert fig.axes[0].get_yscale() == "log"
    assert sum(heights[1]) + sum(heights[2]) < sum(heights[0])


def test_idastar_passes_and_open_closed():
    fig = plot_idastar_passes([(21, 10), (23, 80), (25, 700)], log=True)
    assert bar_heights(fig) == [[10, 80, 700]]
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["21", "23", "25"]
    assert "790" in " ".join(t.get_text() for t in fig.axes[0].texts)
    fig = plot_open_closed([(3, 1), (5, 2), (6, 3)])
    lines = fig.axes[0].get_lines()
    assert [list(ln.get_ydata()) for ln in lines] == [[3, 5, 6], [1, 2, 3]]
    with pytest.raises(PuzzleError, match="no passes"):
        plot_idastar_passes([])
    with pytest.raises(PuzzleError, match="no history"):
        plot_open_closed([])


# ---- a pancake stack drawn as a stack ------------------------------------------------------

def _stack_drawn(stack, mark=None):
    from matplotlib.patches import Rectangle

    fig, ax = plt.subplots()
    PancakePuzzle(len(stack)).draw(ax, stack, mark=mark)
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    return bars, ax


def test_a_stack_is_drawn_top_down_each_pancake_as_wide_as_its_size():
    stack = [3, 1, 5, 2, 8, 6, 4, 7]
    bars, ax = _stack_drawn(stack)
    assert len(bars) == 8
    tops = [b.get_y() for b in bars]
    assert tops == sorted(tops)  # the first pancake written is the top one (y grows down)
    widths = [b.get_width() for b in bars]
    assert sorted(range(8), key=widths.__getitem__) == sorted(range(8), key=stack.__getitem__)
    assert [t.get_text() for t in ax.texts] == [str(s) for s in stack]
    w, h = PancakePuzzle(8).footprint
    assert all(0 <= b.get_x() and b.get_x() + b.get_width() <= w for b in bars)
    assert max(b.get_y() + b.get_height() for b in bars) <= h


def test_only_the_pancakes_already_home_have_a_rim():
    bars, _ = _stack_drawn([2, 1, 4, 3, 5, 6])
    rimmed = [b.get_linewidth() > 1 for b in bars]
    assert rimmed == [False, False, False, False, True, True]
    bars, _ = _stack_drawn([1, 2, 3, 4])
    assert all(b.get_linewidth() > 1 for b in bars)


def test_the_next_flip_is_a_spatula_under_the_pancakes_it_turns():
    _, ax = _stack_drawn([3, 1, 5, 2, 4], mark=3)
    lines = [ln for ln in ax.lines if ln.get_color() == "#c0392b"]
    assert len(lines) == 1
    y = lines[0].get_ydata()[0]
    bars, _ = _stack_drawn([3, 1, 5, 2, 4])
    assert bars[2].get_y() + bars[2].get_height() < y < bars[3].get_y()
    anim = animate(solved("pancake"), size=20)  # the spatula moves with the solution's flips
    assert anim.n_frames == solved("pancake").length + 1
