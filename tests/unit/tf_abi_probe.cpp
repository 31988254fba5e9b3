// tf_abi_probe.cpp - src/trace/tf_abi.h against a real tree's libtf2: the
// places it reads (checked on a live TimeCache, not from the headers alone)
// and the transforms ct_tf_find_closest says a getData() used, for lookups
// of the latest, of exact stamps and between stamps. Compiled and run by
// test_tf_abi.sh, once per tree; exits 1 on a difference.
#include <tf2/time_cache.h>

#include <cstdio>

extern "C" {
#include "tf_abi.h"
}

namespace
{

int failures = 0;

// getAllItems() is protected: a subclass (the same object) lends it.
class Cache : public tf2::TimeCache
{
public:
  const std::list<tf2::TransformStorage> & items() const {return getAllItems();}
};

void expect(bool ok, const char * what)
{
  std::printf("%s %s\n", ok ? "ok" : "FAIL", what);
  failures += !ok;
}

tf2::TimePoint at(int64_t ns)
{
  return tf2::TimePoint(std::chrono::nanoseconds(ns));
}

tf2::TransformStorage transform(int64_t stamp, uint32_t parent, uint32_t child)
{
  return tf2::TransformStorage(
    at(stamp), tf2::Quaternion(0, 0, 0, 1), tf2::Vector3(stamp, 0, 0), parent, child);
}

// A lookup at `time` through the cache: getData as tf2 runs it, then what
// the tracer reads; `older`/`newer` the stamps it must name (0: none).
void lookup(Cache & cache, int64_t time, int64_t older, int64_t newer, uint32_t parent)
{
  tf2::TransformStorage out;
  char what[160];
  bool got = cache.getData(at(time), out);
  ct_tf_closest c{};
  int n = got ? ct_tf_find_closest(&cache, time, &c) : 0;
  std::snprintf(
    what, sizeof what, "lookup at %lld: %d transforms, %lld (%u->%u) and %lld", (long long)time,
    n, (long long)c.stamp, c.frame, c.child, (long long)c.stamp_);
  bool same = got && n == (newer ? 2 : 1) && c.stamp == older && c.stamp_ == newer &&
    c.frame == parent && c.child == 7 && (!newer || c.child_ == 7);
  // tf2's own answer agrees: an interpolation is stamped with the older
  // one, a single transform is copied whole
  same = same && out.stamp_.time_since_epoch().count() == older &&
    out.child_frame_id_ == 7;
  expect(same, what);
}

}  // namespace

int main()
{
  tf2::TransformStorage s;
  expect(sizeof s == sizeof(ct_tf_storage), "TransformStorage's size");
  const char * base = reinterpret_cast<const char *>(&s);
  expect(
    reinterpret_cast<const char *>(&s.stamp_) - base == offsetof(ct_tf_storage, stamp) &&
    reinterpret_cast<const char *>(&s.frame_id_) - base == offsetof(ct_tf_storage, frame_id) &&
    reinterpret_cast<const char *>(&s.child_frame_id_) - base ==
    offsetof(ct_tf_storage, child_frame_id), "TransformStorage's stamp and frame numbers");

  Cache cache;
  expect(
    reinterpret_cast<const char *>(&cache.items()) - reinterpret_cast<const char *>(&cache) ==
    CT_TF_CACHE_LIST_OFFSET, "TimeCache's list");
  ct_tf_closest c{};
  expect(ct_tf_find_closest(&cache, 0, &c) == 0, "an empty cache gives nothing");

  cache.insertData(transform(1000, 3, 7));
  lookup(cache, 0, 1000, 0, 3);
  lookup(cache, 1000, 1000, 0, 3);
  for (int64_t stamp : {2000, 3000, 4000}) {
    cache.insertData(transform(stamp, 3, 7));
  }
  cache.insertData(transform(5000, 4, 7));  // the edge's parent changed
  lookup(cache, 0, 5000, 0, 4);  // the latest
  lookup(cache, 5000, 5000, 0, 4);  // the latest, by its stamp
  lookup(cache, 1000, 1000, 0, 3);  // the oldest, by its stamp
  lookup(cache, 1500, 1000, 2000, 3);  // between two: interpolated
  lookup(cache, 3999, 3000, 4000, 3);
  lookup(cache, 3000, 3000, 4000, 3);  // an inner stamp: tf2 takes its newer neighbour too
  lookup(cache, 4500, 4000, 5000, 3);  // between two parents: the older one alone counts
  const auto & items = cache.items();
  expect(
    items.size() == 5 && ct_tf_value(
      reinterpret_cast<const ct_tf_list_node *>(
        reinterpret_cast<const char *>(&cache) + CT_TF_CACHE_LIST_OFFSET)->next)->stamp == 5000,
    "the list is newest first, as read");
  std::printf("%d failures\n", failures);
  return failures ? 1 : 0;
}
