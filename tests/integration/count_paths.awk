# count_paths.awk - counts the simple paths between two nodes of a testbed
# system description (tb-gen's format: one node per "- name:", its
# namespace, then timers / subscriptions with topic: and publish: [...]),
# walking the description itself: an independent answer for caret path
# search. usage: awk -v from=/ns/a -v to=/ns/b -f count_paths.awk SYSTEM.yaml
/^ *- name: n/ { node = $3; next }
/^ *namespace:/ { fq = $2 "/" node; nodes[++n] = fq; next }
/topic:/ {
	match($0, /topic: [^,}]*/)
	t = substr($0, RSTART + 7, RLENGTH - 7)
	subs[fq, t] = 1
}
/publish: \[/ {
	match($0, /publish: \[[^]]*\]/)
	list = substr($0, RSTART + 10, RLENGTH - 11)
	k = split(list, ts, /, */)
	for (i = 1; i <= k; i++)
		pubs[fq, ts[i]] = 1
}
function walk(a,    count, i, k, next_nodes) {
	if (a == to)
		return 1
	on[a] = 1
	count = 0
	k = split(adj[a], next_nodes, " ")
	for (i = 1; i <= k; i++)
		if (!on[next_nodes[i]])
			count += walk(next_nodes[i])
	on[a] = 0
	return count
}
END {
	# edges: a publishes a topic b subscribes (each pair once)
	for (key in subs) {
		split(key, s, SUBSEP)
		subscribers[s[2]] = subscribers[s[2]] " " s[1]
	}
	for (key in pubs) {
		split(key, s, SUBSEP)
		k = split(subscribers[s[2]], bs, " ")
		for (i = 1; i <= k; i++)
			if (bs[i] != s[1] && !((s[1], bs[i]) in edge)) {
				edge[s[1], bs[i]] = 1
				adj[s[1]] = adj[s[1]] " " bs[i]
			}
	}
	print walk(from)
}
