"""What CSS geometry leaves of an element's text, for :mod:`provider.wiki.hidden_css`.

A transform (``transform``, and the ``translate``/``rotate``/``scale`` properties) is
multiplied out as the browser does, into a 4×4 matrix; the area the element's text keeps
on the screen is the determinant of the matrix's x/y part (``rotateX(90deg)``,
``matrix(0,0,0,0,0,0)``, ``scale3d(0,0,0)``, ``skewX(90deg)`` leave none). A
``clip-path`` polygon is measured by its area; one whose points are not all in one unit
cannot be measured here.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tinycss2.ast import Node

from .css_values import UNKNOWN, Unknown, angle_deg, arguments, length, number, significant

__all__ = ["Matrix", "area_scale", "polygon_area", "transform_matrix"]

#: Column-major 4×4, as CSS ``matrix3d()`` lists it.
Matrix = tuple[float, ...]
_IDENTITY: Matrix = (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)


def _multiply(a: Matrix, b: Matrix) -> Matrix:
    return tuple(sum(a[k * 4 + row] * b[col * 4 + k] for k in range(4)) for col in range(4) for row in range(4))


def _rotation(x: float, y: float, z: float, degrees: float) -> Matrix:
    norm = math.sqrt(x * x + y * y + z * z)
    if norm == 0:
        return _IDENTITY
    x, y, z = x / norm, y / norm, z / norm
    a = math.radians(degrees)
    s, c = math.sin(a), math.cos(a)
    t = 1 - c
    return (t * x * x + c, t * x * y + s * z, t * x * z - s * y, 0,
            t * x * y - s * z, t * y * y + c, t * y * z + s * x, 0,
            t * x * z + s * y, t * y * z - s * x, t * z * z + c, 0, 0, 0, 0, 1)


def _scale(x: float, y: float, z: float = 1.0) -> Matrix:
    return (x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1)


def _factor(token: Node) -> float | None:
    found = number(token)
    if found is None:
        return None
    value, unit = found
    return value / 100 if unit == "%" else value if not unit else None


def _function_matrix(name: str, args: list[list[Node]]) -> Matrix | Unknown | None:
    """One transform function as a matrix; translations count as none (the caller
    reads them as offsets)."""
    flat = [part[0] for part in args if len(part) == 1]
    if len(flat) != len(args):
        return None
    if name.startswith("translate") or name == "perspective":
        return _IDENTITY
    if name in ("scale", "scalex", "scaley", "scalez", "scale3d"):
        factors = [_factor(t) for t in flat]
        if not factors or any(f is None for f in factors):
            return None
        f = [x for x in factors if x is not None]
        return {"scale": lambda: _scale(f[0], f[1] if len(f) > 1 else f[0]), "scalex": lambda: _scale(f[0], 1),
                "scaley": lambda: _scale(1, f[0]), "scalez": lambda: _scale(1, 1, f[0]),
                "scale3d": lambda: _scale(*[*f, 1.0, 1.0][:3])}[name]()
    if name in ("rotate", "rotatez", "rotatex", "rotatey", "rotate3d"):
        if name == "rotate3d":
            axis = [_factor(t) for t in flat[:3]]
            degrees = angle_deg(flat[3]) if len(flat) == 4 else None
            if degrees is None or any(a is None for a in axis):
                return None
            x, y, z = (a or 0.0 for a in axis)
            return _rotation(x, y, z, degrees)
        degrees = angle_deg(flat[0]) if len(flat) == 1 else None
        if degrees is None:
            return None
        x, y, z = {"rotatex": (1.0, 0.0, 0.0), "rotatey": (0.0, 1.0, 0.0)}.get(name, (0.0, 0.0, 1.0))
        return _rotation(x, y, z, degrees)
    if name in ("skew", "skewx", "skewy"):
        angles = [angle_deg(t) for t in flat]
        if not angles or any(a is None for a in angles):
            return None
        ax = angles[0] if name != "skewy" else 0.0
        ay = (angles[1] if len(angles) > 1 else 0.0) if name == "skew" else angles[0] if name == "skewy" else 0.0
        return (1, math.tan(math.radians(ay or 0.0)), 0, 0, math.tan(math.radians(ax or 0.0)), 1, 0, 0,
                0, 0, 1, 0, 0, 0, 0, 1)
    if name in ("matrix", "matrix3d"):
        values = [_factor(t) if t.type == "number" else None for t in flat]
        if any(v is None for v in values):
            return None
        v = [x or 0.0 for x in values]
        if name == "matrix" and len(v) == 6:
            return (v[0], v[1], 0, 0, v[2], v[3], 0, 0, 0, 0, 1, 0, v[4], v[5], 0, 1)
        return tuple(v) if len(v) == 16 else None
    return UNKNOWN


def transform_matrix(transform: Sequence[Node], rotate: Sequence[Node] = (),
                     scale: Sequence[Node] = ()) -> Matrix | Unknown | None:
    """The matrix of the ``rotate``, ``scale`` and ``transform`` properties, in the
    order CSS applies them; :data:`UNKNOWN` for a function or value only the site
    decides; ``None`` for a value no browser accepts (the declaration is dropped)."""
    matrix = _IDENTITY
    rotate_parts = significant(rotate)
    if rotate_parts and not (len(rotate_parts) == 1 and rotate_parts[0].type == "ident"):
        degrees = angle_deg(rotate_parts[-1])
        axis_names = {"x": (1.0, 0.0, 0.0), "y": (0.0, 1.0, 0.0), "z": (0.0, 0.0, 1.0)}
        first = rotate_parts[0]
        if degrees is None:
            return UNKNOWN
        if len(rotate_parts) == 2 and first.type == "ident" and first.lower_value in axis_names:
            matrix = _rotation(*axis_names[first.lower_value], degrees)
        elif len(rotate_parts) == 4:
            axis = [_factor(t) or 0.0 for t in rotate_parts[:3]]
            matrix = _rotation(axis[0], axis[1], axis[2], degrees)
        else:
            matrix = _rotation(0, 0, 1, degrees)
    scale_parts = significant(scale)
    if scale_parts and not (len(scale_parts) == 1 and scale_parts[0].type == "ident"):
        factors = [_factor(t) for t in scale_parts]
        if any(f is None for f in factors):
            return UNKNOWN
        f = [x or 0.0 for x in factors]
        matrix = _multiply(matrix, _scale(f[0], f[1] if len(f) > 1 else f[0], f[2] if len(f) > 2 else 1.0))
    for token in significant(transform):
        if token.type == "ident":
            continue  # ``none`` (and the global keywords)
        if token.type != "function":
            return None
        found = _function_matrix(token.lower_name, arguments(token))
        if found is None or isinstance(found, Unknown):
            return found
        matrix = _multiply(matrix, found)
    return matrix


def area_scale(matrix: Matrix) -> float:
    """How much of its area the text keeps on the screen (1: all; 0: none, edge-on or
    squashed flat): the determinant of the matrix's x/y part, with a skew close to 90°
    (a stretch beyond 50×) as none."""
    a, b, c, d = matrix[0], matrix[1], matrix[4], matrix[5]
    if max(abs(a), abs(b), abs(c), abs(d)) > 50:
        return 0.0
    return abs(a * d - b * c)


def polygon_area(points: list[list[Node]]) -> float | Unknown:
    """The area of a ``clip-path: polygon()`` as a share of the element's box (percent
    coordinates) or in px² (lengths); :data:`UNKNOWN` when its points mix units."""
    xy: list[tuple[float, float]] = []
    units = set()
    for point in points:
        if point and point[0].type == "ident" and point[0].lower_value in ("nonzero", "evenodd"):
            continue
        values = [length([t]) for t in point]
        if len(values) != 2 or any(v is None or isinstance(v, Unknown) for v in values):
            return UNKNOWN
        (x, ux), (y, uy) = (v for v in values if v is not None and not isinstance(v, Unknown))
        units |= {ux if x else "", uy if y else ""}
        xy.append((x / 100 if ux == "%" else x, y / 100 if uy == "%" else y))
    if len(units - {""}) > 1:
        return UNKNOWN
    return abs(sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(xy, xy[1:] + xy[:1], strict=True))) / 2
