"""Every path between two vertices of a directed multigraph, in the
order the original's depth-first search finds them (its path search and
its search of callback chains inside a node take their results in that
order): the last untried edge first, an edge (u, v) used once per path
(so a vertex may be passed again through another edge), the goal never
passed through, max_depth bounding the edges a path is extended from."""


class Graph:
    def __init__(self):
        self._edges = {}  # vertex -> [(to, label)], in the order added

    def add_vertex(self, v):
        self._edges.setdefault(v, [])

    def add_edge(self, u, v, label=''):
        self.add_vertex(u)
        self.add_vertex(v)
        self._edges[u].append((v, label))

    def __contains__(self, v):
        return v in self._edges

    def paths(self, start, goal, max_depth=0):
        """[[(from, to, label), ...], ...]: each path's edges."""
        found, path, used = [], [], set()
        todo = [list(self._edges[start])]  # per depth, the edges not tried yet
        vertex, forward = start, True
        while todo:
            if vertex == goal and forward and path:
                found.append(list(path))
            edge = None
            if vertex != goal or vertex == start:
                candidates = todo[-1]
                if not (max_depth > 0 and len(path) > max_depth):
                    for i in range(len(candidates) - 1, -1, -1):
                        if (vertex, candidates[i][0]) not in used:
                            edge = candidates.pop(i)
                            break
                    if edge is None:
                        candidates.clear()
            if edge is not None:
                to, label = edge
                used.add((vertex, to))
                path.append((vertex, to, label))
                vertex, forward = to, True
                todo.append(list(self._edges[to]))
            else:
                forward = False
                todo.pop()
                if path:
                    u, v, _ = path.pop()
                    used.discard((u, v))
                    vertex = u
        return found
