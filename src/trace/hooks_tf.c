/*
 * hooks_tf.c - tf2 and tf2_ros functions interposed by their mangled names
 * (the same in Humble and Jazzy): what a broadcaster sends, what enters a
 * buffer, which frame numbers a buffer gives, what a lookup returned and
 * which stored transforms each edge of it read (docs/dev/tf.md).
 *
 * lookupTransform throws when a transform is not there yet, a common and
 * caught case: this file is compiled with -fexceptions so that the throw
 * unwinds through the hooks, and no hook holds state across the original
 * call that an unwinding would leave behind (the nesting depth is taken
 * only around the hook's own work; the capture below is cleared by a
 * cleanup handler).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "init_store.h"
#include "original.h"
#include "ros2_caret_tp.h"
#include "tf_abi.h"
#include "tracer.h"

#define MANGLED(name) __asm__(name) CT_EXPORT

#define STRING_REF "RKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE"
#define TIME_POINT "NSt6chrono10time_pointINS9_3_V212system_clockENS9_8durationIlSt5ratioILl1ELl1000000000EEEEEE"
#define SYM_SET_TRANSFORM \
	"_ZN3tf210BufferCore12setTransformERKN13geometry_msgs3msg17TransformStamped_ISaIvEEE" \
	STRING_REF "b"
#define SYM_LOOKUP_OR_INSERT "_ZN3tf210BufferCore25lookupOrInsertFrameNumberE" STRING_REF
#define SYM_LOOKUP_FRAME_NUMBER "_ZNK3tf210BufferCore17lookupFrameNumberE" STRING_REF
#define SYM_LOOKUP_IMPL \
	"_ZNK3tf210BufferCore19lookupTransformImplE" STRING_REF "S8_RK" TIME_POINT \
	"RNS_9TransformERSH_"
/* TimeCache::getData(time, TransformStorage &, std::string *), and in
 * Jazzy with a TF2Error * after it. */
#define SYM_GET_DATA \
	"_ZN3tf29TimeCache7getDataENSt6chrono10time_pointINS1_3_V212system_clockENS1_8durationIlSt5" \
	"ratioILl1ELl1000000000EEEEEERNS_16TransformStorageEPNSt7__cxx1112basic_stringIcSt11char_" \
	"traitsIcESaIcEEE"
#define SYM_GET_DATA_WITH_CODE SYM_GET_DATA "PNS_8TF2ErrorE"
#define SYM_SEND(cls, len) "_ZN7tf2_ros" #len #cls "13sendTransformERK"
#define SYM_SEND_ONE(cls, len) SYM_SEND(cls, len) "N13geometry_msgs3msg17TransformStamped_ISaIvEEE"
#define SYM_SEND_MANY(cls, len) \
	SYM_SEND(cls, len) "St6vectorIN13geometry_msgs3msg17TransformStamped_ISaIvEEESaIS6_EE"

/* libstdc++'s std::string: the characters (NUL-terminated), then the size. */
struct std_string {
	const char *chars;
	size_t size;
};

/* geometry_msgs::msg::TransformStamped, the members read (128 bytes; the
 * same layout in Humble and Jazzy). */
struct transform_stamped {
	int32_t sec;
	uint32_t nanosec;
	struct std_string frame_id;
	char frame_id_storage[16];
	struct std_string child_frame_id;
	char child_frame_id_storage[16];
	char transform[56];
};
_Static_assert(sizeof(struct transform_stamped) == 128, "TransformStamped is 128 bytes");

/* std::vector<T>: begin, end, end of storage. */
struct vector {
	const struct transform_stamped *begin, *end;
	const void *capacity;
};

#define P(x) { .u = (uint64_t)(uintptr_t)(x) }
#define U(x) { .u = (x) }
#define S(x) { .s = (x) }

/* Recording, and not inside a callback run the node or topic filters
 * leave out (tf events follow the run they happen in). */
static bool recorded(void)
{
	return !ct_thread.in_control && ct_recording() && !ct_in_run_left_out();
}

static uint64_t stamp_ns(const struct transform_stamped *t)
{
	return (uint64_t)((int64_t)t->sec * 1000000000 + t->nanosec);
}

/* tf2 keeps frame names without a leading '/'. */
static const char *stripped(const char *frame)
{
	return frame && frame[0] == '/' ? frame + 1 : frame;
}

/* ---- broadcasters --------------------------------------------------------- */

/* sendTransform(one) may call sendTransform(vector): the outer call records. */
static CT_TLS bool sending;

/* A static transform is the tree's initialization: stored, and replayed
 * into a later recording. */
static void record_sent(const void *broadcaster, const struct transform_stamped *t,
	size_t n, bool is_static)
{
	int64_t now = ct_now();
	for (size_t i = 0; i < n; i++)
		if (is_static) {
			const union ct_value v[] = { P(broadcaster), U(stamp_ns(&t[i])),
				S(t[i].frame_id.chars), S(t[i].child_frame_id.chars) };
			ct_record_initialization(CS_EV_ros2_caret_send_static_transform, v, 4, now);
		} else if (recorded()) {
			lttng_ust_tracepoint(ros2_caret, send_transform, broadcaster, stamp_ns(&t[i]),
				t[i].frame_id.chars, t[i].child_frame_id.chars);
		}
}

static void clear_sending(bool *was)
{
	sending = *was;
}

#define SEND_HOOK(fn, symbol, arg_type, first, count, is_static)               \
	void fn(void *self, const arg_type *arg) MANGLED(symbol);              \
	void fn(void *self, const arg_type *arg)                               \
	{                                                                      \
		int e = errno;                                                 \
		bool outer __attribute__((cleanup(clear_sending))) = sending;  \
		if (!outer && arg && !ct_thread.in_control)                    \
			record_sent(self, first, count, is_static);            \
		sending = true;                                                \
		CT_ORIGINAL(void (*)(void *, const arg_type *), symbol);       \
		errno = e;                                                     \
		if (original)                                                  \
			original(self, arg);                                   \
	}

SEND_HOOK(ct_tf_send_one, SYM_SEND_ONE(TransformBroadcaster, 20), struct transform_stamped,
	arg, 1, false)
SEND_HOOK(ct_tf_send_many, SYM_SEND_MANY(TransformBroadcaster, 20), struct vector, arg->begin,
	(size_t)(arg->end - arg->begin), false)
SEND_HOOK(ct_tf_send_static_one, SYM_SEND_ONE(StaticTransformBroadcaster, 26),
	struct transform_stamped, arg, 1, true)
SEND_HOOK(ct_tf_send_static_many, SYM_SEND_MANY(StaticTransformBroadcaster, 26), struct vector,
	arg->begin, (size_t)(arg->end - arg->begin), true)

/* ---- buffers ------------------------------------------------------------ */

/* Edges a lookup holds before it emits them (more are emitted at once). */
#define MAX_EDGES 32

/* The frame numbers tf2 gives two frame names while setTransform or a
 * lookup runs in this thread, caught in the calls it makes to number them
 * (under the buffer's frame mutex: read later, the table could be moving);
 * and for a lookup, what each edge it walked read. */
struct capture {
	const void *buffer;
	const char *a, *b;
	uint64_t a_number, b_number;
	struct ct_tf_closest *edges; /* NULL: not a lookup */
	size_t n_edges;
};
static CT_TLS struct capture *capturing;

static void stop_capture(struct capture **outer)
{
	capturing = *outer;
}

static void catch_number(const void *buffer, const struct std_string *name, uint32_t number)
{
	struct capture *c = capturing;
	if (!c || c->buffer != buffer || !name)
		return;
	if (c->a && !strcmp(name->chars, c->a))
		c->a_number = number;
	if (c->b && !strcmp(name->chars, c->b))
		c->b_number = number;
}

typedef uint32_t (*frame_number_fn)(const void *, const struct std_string *);

static frame_number_fn original_frame_number(void)
{
	CT_ORIGINAL(uint32_t (*)(const void *, const struct std_string *), SYM_LOOKUP_FRAME_NUMBER);
	return original;
}

uint32_t ct_tf_lookup_frame_number(const void *self, const struct std_string *name)
	MANGLED(SYM_LOOKUP_FRAME_NUMBER);
uint32_t ct_tf_lookup_frame_number(const void *self, const struct std_string *name)
{
	frame_number_fn original = original_frame_number();
	uint32_t number = original ? original(self, name) : 0;
	int e = errno;
	catch_number(self, name, number);
	errno = e;
	return number;
}

/* Called with the frame mutex held, as lookupFrameNumber needs: a frame the
 * buffer did not know gets its number announced. */
uint32_t ct_tf_lookup_or_insert(void *self, const struct std_string *name)
	MANGLED(SYM_LOOKUP_OR_INSERT);
uint32_t ct_tf_lookup_or_insert(void *self, const struct std_string *name)
{
	int e = errno;
	frame_number_fn known = original_frame_number();
	bool fresh = !ct_thread.in_control && name && known && known(self, name) == 0;
	CT_ORIGINAL(uint32_t (*)(void *, const struct std_string *), SYM_LOOKUP_OR_INSERT);
	errno = e;
	uint32_t number = original ? original(self, name) : 0;
	CT_ENTER(saved);
	if (!CT_REENTERED() && fresh && number) {
		const union ct_value v[] = { P(self), S(name->chars), U(number) };
		ct_record_initialization(CS_EV_ros2_caret_init_tf_buffer_frame_id_compact, v, 3,
			ct_now());
	}
	catch_number(self, name, number);
	CT_LEAVE(saved);
	return number;
}

bool ct_tf_set_transform(void *self, const struct transform_stamped *t,
	const struct std_string *authority, bool is_static) MANGLED(SYM_SET_TRANSFORM);
bool ct_tf_set_transform(void *self, const struct transform_stamped *t,
	const struct std_string *authority, bool is_static)
{
	int e = errno;
	struct capture c = { self, t ? stripped(t->frame_id.chars) : NULL,
		t ? stripped(t->child_frame_id.chars) : NULL, 0, 0, NULL, 0 };
	struct capture *outer __attribute__((cleanup(stop_capture), unused)) = capturing;
	capturing = &c;
	CT_ORIGINAL(bool (*)(void *, const struct transform_stamped *, const struct std_string *,
		bool), SYM_SET_TRANSFORM);
	errno = e;
	bool set = original ? original(self, t, authority, is_static) : false;
	e = errno;
	if (set && t && is_static && !ct_thread.in_control) {
		const union ct_value v[] = { P(self), U(stamp_ns(t)), U(c.a_number), U(c.b_number) };
		ct_record_initialization(CS_EV_ros2_caret_tf_set_static_transform, v, 4, ct_now());
	} else if (set && t && recorded()) {
		lttng_ust_tracepoint(ros2_caret, tf_set_transform, self, stamp_ns(t), c.a_number,
			c.b_number);
	}
	errno = e;
	return set;
}

/* What each edge of a lookup read, emitted with the lookup once it
 * returned: a lookup that throws leaves none behind. */
static void emit_edges(struct capture *c)
{
	for (size_t i = 0; i < c->n_edges; i++) {
		const struct ct_tf_closest *x = &c->edges[i];
		lttng_ust_tracepoint(ros2_caret, tf_buffer_find_closest, c->buffer, x->frame,
			x->child, (uint64_t)x->stamp, x->frame_, x->child_, (uint64_t)x->stamp_);
	}
	c->n_edges = 0;
}

/* A getData that succeeded in a lookup of this thread: the transforms it
 * used, read from the cache while the lookup holds the frame mutex. */
static void note_edge(const void *cache, int64_t time)
{
	struct capture *c = capturing;
	if (!c || !c->edges || !recorded())
		return;
	if (c->n_edges == MAX_EDGES) /* a tree deeper than any seen: emit early */
		emit_edges(c);
	if (ct_tf_find_closest(cache, time, &c->edges[c->n_edges]))
		c->n_edges++;
}

bool ct_tf_get_data(void *self, int64_t time, void *out, void *error_str)
	MANGLED(SYM_GET_DATA);
bool ct_tf_get_data(void *self, int64_t time, void *out, void *error_str)
{
	int e = errno;
	CT_ORIGINAL(bool (*)(void *, int64_t, void *, void *), SYM_GET_DATA);
	errno = e;
	bool got = original && original(self, time, out, error_str);
	e = errno;
	if (got)
		note_edge(self, time);
	errno = e;
	return got;
}

bool ct_tf_get_data_with_code(void *self, int64_t time, void *out, void *error_str,
	void *error_code) MANGLED(SYM_GET_DATA_WITH_CODE);
bool ct_tf_get_data_with_code(void *self, int64_t time, void *out, void *error_str,
	void *error_code)
{
	int e = errno;
	CT_ORIGINAL(bool (*)(void *, int64_t, void *, void *, void *), SYM_GET_DATA_WITH_CODE);
	errno = e;
	bool got = original && original(self, time, out, error_str, error_code);
	e = errno;
	if (got)
		note_edge(self, time);
	errno = e;
	return got;
}

/* The lookup behind every lookupTransform(target, source, time): recorded
 * when it succeeded (a failure throws, and unwinds through here), after
 * what each of its edges read. */
void ct_tf_lookup_impl(const void *self, const struct std_string *target,
	const struct std_string *source, const int64_t *time, void *transform, int64_t *stamp)
	MANGLED(SYM_LOOKUP_IMPL);
void ct_tf_lookup_impl(const void *self, const struct std_string *target,
	const struct std_string *source, const int64_t *time, void *transform, int64_t *stamp)
{
	int e = errno;
	struct ct_tf_closest edges[MAX_EDGES];
	struct capture c = { self, target ? target->chars : NULL, source ? source->chars : NULL,
		0, 0, edges, 0 };
	struct capture *outer __attribute__((cleanup(stop_capture), unused)) = capturing;
	capturing = &c;
	CT_ORIGINAL(void (*)(const void *, const struct std_string *, const struct std_string *,
		const int64_t *, void *, int64_t *), SYM_LOOKUP_IMPL);
	errno = e;
	if (original)
		original(self, target, source, time, transform, stamp);
	e = errno;
	if (recorded()) {
		emit_edges(&c);
		lttng_ust_tracepoint(ros2_caret, tf_lookup_transform, self, c.a_number, c.b_number,
			time ? (uint64_t)*time : 0, stamp ? (uint64_t)*stamp : 0);
	}
	errno = e;
}
