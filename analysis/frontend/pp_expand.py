"""Macro expansion with hide sets (Prosser's algorithm): invocations and
their arguments, ``#`` and ``##``, ``__VA_ARGS__``/``__VA_OPT__``, the special
macros, and ``defined``/``__has_include`` in ``#if`` lines."""

from __future__ import annotations

from distaff.analysis.frontend.pp_files import _File, _Site
from distaff.analysis.frontend.pp_tokens import _BLANK, _Macro, _NO_HIDE, _TOKEN, _Tok
from distaff.analysis.ir import FindingKind, Span

MAX_EXPANSION_TOKENS = 200_000  # per chunk of source lines: stops exponential macros


class _Expander:
    """Mixin of :class:`distaff.analysis.frontend.preprocess._Preprocessor`: macro
    expansion of source lines and directive lines."""

    def expand_line(self, toks, f: _File, span: Span, in_if: bool = False) -> list[_Tok]:
        """Macro-expand directive tokens (of #if or a computed #include)."""
        line = [_Tok(kind, text, _NO_HIDE, -1, -1, ws) for kind, text, _, ws in toks]
        site = _Site(f, [], span)
        self.budget = MAX_EXPANSION_TOKENS
        if in_if:
            line = self._defined(line, f, span)
        line = self.expand(line, site)
        if in_if:
            line = self._defined(line, f, span)
        return line

    def _defined(self, toks: list[_Tok], f: _File, span: Span) -> list[_Tok]:
        """Replace ``defined X``, ``defined(X)`` and ``__has_include(..)`` and
        its kin by 0 or 1."""
        if not any(t.kind == "id" and (t.text == "defined" or t.text.startswith("__has_")) for t in toks):
            return toks
        out: list[_Tok] = []
        j = 0
        n = len(toks)
        while j < n:
            t = toks[j]
            if t.kind == "id" and t.text == "defined":
                if j + 1 < n and toks[j + 1].kind == "id":
                    value, j = toks[j + 1].text in self.macros, j + 2
                elif j + 3 < n and toks[j + 1].text == "(" and toks[j + 2].kind == "id" and toks[j + 3].text == ")":
                    value, j = toks[j + 2].text in self.macros, j + 4
                else:
                    self.finding(FindingKind.SYNTAX, '"defined" needs a macro name', span)
                    value, j = False, j + 1
                out.append(_Tok("num", "1" if value else "0", _NO_HIDE, -1, -1, t.ws))
            elif t.kind == "id" and t.text in (
                "__has_include", "__has_include_next", "__has_attribute", "__has_builtin",
                "__has_feature", "__has_extension", "__has_c_attribute", "__has_cpp_attribute",
            ) and j + 1 < n and toks[j + 1].text == "(":
                k, level = j + 1, 0
                while k < n:
                    level += toks[k].text == "("
                    level -= toks[k].text == ")"
                    if level == 0:
                        break
                    k += 1
                inner = toks[j + 2:k]
                value = False
                if t.text == "__has_include" and len(inner) == 1 and inner[0].kind == "str" and self.read_include:
                    try:
                        value = self.read_include(inner[0].text[1:-1], f.path) is not None
                    except Exception:
                        value = False
                out.append(_Tok("num", "1" if value else "0", _NO_HIDE, -1, -1, t.ws))
                j = k + 1
            else:
                out.append(t)
                j += 1
        return out

    # ---- macro expansion

    def expand(self, toks: list[_Tok], site: _Site, source=(), marks=()) -> list[_Tok]:
        """Expand every macro in ``toks`` followed by the source tokens
        ``source`` ((kind, text, offset, ws) tuples, their index is a token's
        ``src``), with Prosser's algorithm (hide sets). ``marks`` are the
        indices of the source tokens that name a macro: the others are skipped
        unless an invocation takes them as arguments.

        Returns the tokens expansions produced (source tokens left as they are
        are not returned). Source tokens that take part in an invocation are
        added to ``site.consumed``, the names that start one to ``site.origins``.
        """
        out: list[_Tok] = []
        feed = _Input(toks, source)
        stack = feed.stack
        macros = self.macros
        mi = 0
        while True:
            if stack:
                t = stack.pop()
            else:
                while mi < len(marks) and marks[mi] < feed.sp:
                    mi += 1
                if mi >= len(marks):
                    break
                feed.sp = marks[mi]
                t = feed.pop()
            if t.kind != "id" or t.text in t.hs or t.text not in macros:
                if t.src < 0:
                    out.append(t)
                continue
            m = macros[t.text]
            origin = t.src if t.src >= 0 else t.origin
            if m.special:
                out.append(self._special(m.special, t, origin, site))
                if t.src >= 0:
                    site.consumed.add(t.src)
                    site.origins.add(t.src)
                continue
            if m.params is None:
                replacement = self.substitute(m, [], t.hs | {m.name}, origin, site)
            else:
                if feed.peek_op() != "(":
                    if t.src < 0:
                        out.append(t)
                    continue
                collected = self._arguments(m, feed, origin, site)
                if collected is None:
                    if t.src < 0:
                        out.append(t)
                    if self.budget < 0:  # unclosed invocations each read to the end
                        self.finding(FindingKind.UNSUPPORTED, "macro expansion too large; the rest is left unexpanded", site.span(origin))
                        out.extend(x for x in reversed(stack) if x.src < 0)
                        break
                    continue
                args, rparen = collected
                replacement = self.substitute(m, args, (t.hs & rparen.hs) | {m.name}, origin, site)
            if t.src >= 0:
                site.consumed.add(t.src)
                site.origins.add(t.src)
            self.budget -= len(replacement) + 1
            if self.budget < 0:
                if self.budget + len(replacement) + 1 >= 0:
                    self.finding(FindingKind.UNSUPPORTED, "macro expansion too large; the rest is left unexpanded", site.span(origin))
                out.extend(x for x in reversed(stack) if x.src < 0)
                break
            stack.extend(reversed(replacement))
        return out

    def _special(self, name: str, t: _Tok, origin: int, site: _Site) -> _Tok:
        if name == "__LINE__":
            return _Tok("num", str(site.line(origin)), _NO_HIDE, -1, origin, t.ws)
        if name == "__FILE__":
            path = site.file.path.replace("\\", "\\\\").replace('"', '\\"')
            return _Tok("str", f'"{path}"', _NO_HIDE, -1, origin, t.ws)
        self.counter += 1
        return _Tok("num", str(self.counter - 1), _NO_HIDE, -1, origin, t.ws)

    def _arguments(self, m: _Macro, feed: "_Input", origin: int, site: _Site):
        """Take ``( args )`` from ``feed``; None (``feed`` unchanged) when the
        list is unterminated or has the wrong number of arguments."""
        popped: list[_Tok] = [feed.pop()]  # "("
        params = m.params or ()
        args: list[list[_Tok]] = [[]]
        level = 0
        rparen = None
        while True:
            t = feed.pop()
            if t is None:
                break
            popped.append(t)
            if t.kind == "op":
                if t.text == "(":
                    level += 1
                elif t.text == ")":
                    if level == 0:
                        rparen = t
                        break
                    level -= 1
                elif t.text == "," and level == 0 and not (m.variadic and len(args) == len(params)):
                    args.append([])
                    continue
            args[-1].append(t.copy(origin))
        self.budget -= len(popped)
        if rparen is None:
            feed.stack.extend(reversed(popped))
            self.finding(FindingKind.SYNTAX, f"unterminated argument list invoking macro {m.name}", site.span(origin))
            return None
        if m.variadic and len(args) == len(params) - 1:
            args.append([])
        if not params and args == [[]]:
            args = []
        if len(args) != len(params):
            feed.stack.extend(reversed(popped))
            self.finding(
                FindingKind.SYNTAX,
                f"macro {m.name} takes {len(params)} argument{'s' if len(params) != 1 else ''}, given {len(args)}",
                site.span(origin),
            )
            return None
        for t in popped:
            if t.src >= 0:
                site.consumed.add(t.src)
        return args, rparen

    def substitute(self, m: _Macro, args: list[list[_Tok]], hs: frozenset[str], origin: int, site: _Site) -> list[_Tok]:
        """The replacement list of ``m`` with its arguments, ``#`` and ``##``
        applied, every token's hide set extended by ``hs``."""
        body = m.body
        if m.va_opt:
            body = _va_opt(body, bool(args and args[-1]))
        items: list = []  # _Tok, or _PASTE between the operands of ##
        expanded: dict[int, list[_Tok]] = {}
        n = len(body)
        j = 0
        va = len(m.params) - 1 if m.variadic and m.params else -1
        while j < n:
            kind, text, ws, param = body[j]
            if text == "#" and m.params is not None and j + 1 < n and body[j + 1][3] >= 0:
                items.append(_Tok("str", _stringize(args[body[j + 1][3]]), _NO_HIDE, -1, origin, ws))
                j += 2
                continue
            if text == "##" and kind == "op":
                items.append(_PASTE)
                j += 1
                continue
            if text == "," and va >= 0 and j + 2 < n and body[j + 1][1] == "##" and body[j + 2][3] == va:
                if args[va]:  # GNU: ", ## __VA_ARGS__" keeps the comma only before arguments
                    items.append(_Tok("op", ",", _NO_HIDE, -1, origin, ws))
                    items.extend(t.copy(origin) for t in args[va])
                j += 3
                continue
            if param >= 0:
                if (j > 0 and body[j - 1][1] == "##") or (j + 1 < n and body[j + 1][1] == "##"):
                    arg = [t.copy(origin) for t in args[param]]
                    items.extend(arg or [_Tok("pm", "", _NO_HIDE, -1, origin, False)])
                else:
                    if param not in expanded:
                        expanded[param] = self.expand([t.copy(origin) for t in args[param]], site)
                    first = True
                    for t in expanded[param]:
                        c = t.copy(origin)
                        if first:
                            c.ws, first = ws, False
                        items.append(c)
            else:
                items.append(_Tok(kind, text, _NO_HIDE, -1, origin, ws))
            j += 1
        if _PASTE in items:
            items = self._paste(items, m, site, origin)
        out = []
        for t in items:
            if t.kind == "pm":
                continue
            t.hs = hs if not t.hs else t.hs | hs
            out.append(t)
        return out

    def _paste(self, items: list, m: _Macro, site: _Site, origin: int) -> list[_Tok]:
        out: list[_Tok] = []
        j = 0
        while j < len(items):
            t = items[j]
            if t is _PASTE:
                j += 1
                if j >= len(items) or items[j] is _PASTE:
                    continue
                right = items[j]
                left = out.pop() if out else _Tok("pm", "", _NO_HIDE, -1, origin, False)
                if left.kind == "pm":
                    out.append(right)
                elif right.kind == "pm":
                    out.append(left)
                else:
                    text = left.text + right.text
                    match = _TOKEN.match(text)
                    if match and match.end() == len(text) and match.lastgroup not in _BLANK:
                        out.append(_Tok(match.lastgroup, text, left.hs & right.hs, -1, origin, left.ws))
                    else:
                        self.finding(
                            FindingKind.SYNTAX,
                            f"pasting {left.text!r} and {right.text!r} in macro {m.name} does not give a valid token",
                            site.span(origin),
                        )
                        out.extend((left, right))
            else:
                out.append(t)
            j += 1
        return out


_PASTE = _Tok("paste", "##", _NO_HIDE, -1, -1, False)


class _Input:
    """What an expansion reads: a stack of tokens (top last) in front of the
    rest of the source chunk, from which tokens are made as they are read."""

    __slots__ = ("stack", "source", "sp")

    def __init__(self, toks: list[_Tok], source):
        self.stack = toks[::-1]
        self.source = source
        self.sp = 0

    def pop(self) -> _Tok | None:
        if self.stack:
            return self.stack.pop()
        if self.sp < len(self.source):
            kind, text, _, ws = self.source[self.sp]
            self.sp += 1
            return _Tok(kind, text, _NO_HIDE, self.sp - 1, -1, ws)
        return None

    def peek_op(self) -> str:
        """The next token's text if it is a punctuator, else ""."""
        if self.stack:
            t = self.stack[-1]
            return t.text if t.kind == "op" else ""
        if self.sp < len(self.source):
            kind, text, _, _ = self.source[self.sp]
            return text if kind == "op" else ""
        return ""


def _flat(macro: _Macro, macros: dict[str, _Macro]) -> str | bool:
    """The expansion of an object-like macro whose body has no macro to
    expand and no ``##`` (False for any other)."""
    if macro.special:
        return False
    for kind, text, _, _ in macro.body:
        if (kind == "id" and text != macro.name and text in macros) or text == "##":
            return False
    return " ".join(b[1] for b in macro.body)


def _va_opt(body, present: bool):
    """The body with each ``__VA_OPT__(content)`` replaced by its content when
    variadic arguments are present, and removed otherwise."""
    out = []
    j = 0
    n = len(body)
    while j < n:
        if body[j][1] == "__VA_OPT__" and j + 1 < n and body[j + 1][1] == "(":
            level, k = 0, j + 1
            while k < n:
                level += body[k][1] == "("
                level -= body[k][1] == ")"
                if level == 0:
                    break
                k += 1
            if present:
                out.extend(body[j + 2:k])
            j = k + 1
        else:
            out.append(body[j])
            j += 1
    return tuple(out)


def _stringize(arg: list[_Tok]) -> str:
    parts = []
    for j, t in enumerate(arg):
        if j and t.ws:
            parts.append(" ")
        if t.kind in ("str", "chr"):
            parts.append(t.text.replace("\\", "\\\\").replace('"', '\\"'))
        else:
            parts.append(t.text)
    return '"' + "".join(parts) + '"'
