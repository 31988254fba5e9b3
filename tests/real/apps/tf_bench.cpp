// real_tf_bench - what the tracer's tf hooks cost a tf2 buffer: N
// setTransform (odom -> base_link, stamps 1 ms apart) then N
// lookupTransform (map -> base_link, the latest, through a static map ->
// odom), on a tf2::BufferCore alone (no node, no DDS). Prints
// "set_ns lookup_ns", each per call (bench/tf/run.sh).
// usage: real_tf_bench [N]
#include <geometry_msgs/msg/transform_stamped.hpp>
#include <tf2/buffer_core.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace
{

geometry_msgs::msg::TransformStamped transform(int64_t stamp, const char * frame, const char * child)
{
  geometry_msgs::msg::TransformStamped t;
  t.header.stamp.sec = static_cast<int32_t>(stamp / 1000000000);
  t.header.stamp.nanosec = static_cast<uint32_t>(stamp % 1000000000);
  t.header.frame_id = frame;
  t.child_frame_id = child;
  t.transform.rotation.w = 1.0;
  return t;
}

double now_ns()
{
  return static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(
           std::chrono::steady_clock::now().time_since_epoch()).count());
}

}  // namespace

int main(int argc, char ** argv)
{
  const long n = argc > 1 ? std::atol(argv[1]) : 200000;
  tf2::BufferCore buffer(tf2::Duration(std::chrono::seconds(10)));
  buffer.setTransform(transform(1000000000, "map", "odom"), "bench", true);
  double t0 = now_ns();
  for (long i = 0; i < n; i++) {
    buffer.setTransform(transform(1000000000 + i * 1000000, "odom", "base_link"), "bench", false);
  }
  double t1 = now_ns();
  double sum = 0;
  for (long i = 0; i < n; i++) {
    sum += buffer.lookupTransform("map", "base_link", tf2::TimePointZero).transform.rotation.w;
  }
  double t2 = now_ns();
  if (sum != static_cast<double>(n)) {
    std::fprintf(stderr, "real_tf_bench: lookups returned wrong transforms\n");
    return 1;
  }
  std::printf("%.1f %.1f\n", (t1 - t0) / n, (t2 - t1) / n);
  return 0;
}
