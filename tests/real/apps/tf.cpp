// real_tf - data through tf on real tf2_ros: /wheels publishes wheel
// odometry (a Header on /wheel_odom) every --period-ms (20 ms: 50 Hz);
// /odometry broadcasts odom -> base_link for each message it receives,
// stamped with the message's stamp; /map_static broadcasts map -> odom
// once, static; /planner looks up map -> base_link (the latest) every
// 100 ms in a timer and publishes the stamp it got on /plan, then looks up
// how far base_link moved in odom over the last 30 ms (the lookup with a
// fixed frame, two lookups in tf2), and looks up a frame no one
// broadcasts, which throws every time. --nodes picks
// the nodes of this process (all four by default).
//
// Its truth, DIR/<process>.tf.<pid> (CSV): "send,BROADCASTER,STAMP,FRAME,
// CHILD,STATIC" per transform sent, "buffer,BUFFER_CORE" per buffer,
// "lookup,BUFFER_CORE,TARGET,SOURCE,STAMP" per lookup that returned,
// "lookup_failed,BUFFER_CORE,TARGET,SOURCE" per one that threw (stamps in
// ns; BROADCASTER and BUFFER_CORE the addresses tf2 and tf2_ros run with).
#include <geometry_msgs/msg/transform_stamped.hpp>
#include <tf2/exceptions.h>
#include <tf2_ros/buffer.h>
#include <tf2_ros/static_transform_broadcaster.h>
#include <tf2_ros/transform_broadcaster.h>
#include <tf2_ros/transform_listener.h>

#include <sys/stat.h>

#include <mutex>

#include "real_app.hpp"

namespace
{

// The tf truth file of this process (nothing when --truth is not given).
class TfTruth
{
public:
  explicit TfTruth(const real::Options & o)
  {
    if (!o.truth_dir.empty()) {
      mkdir(o.truth_dir.c_str(), 0755);  // as the testbed's truth writer does
      const std::string path = o.truth_dir + "/" + o.process + ".tf." + std::to_string(getpid());
      f_ = std::fopen(path.c_str(), "w");
      if (!f_) {
        std::perror(path.c_str());
        std::exit(1);
      }
    }
  }
  ~TfTruth()
  {
    if (f_) {
      std::fclose(f_);
    }
  }
  TfTruth(const TfTruth &) = delete;
  TfTruth & operator=(const TfTruth &) = delete;

  template<typename... A>
  void line(const char * fmt, A... args)
  {
    std::lock_guard<std::mutex> lock(m_);
    if (f_) {
      std::fprintf(f_, fmt, args...);
      std::fflush(f_);
    }
  }

private:
  std::FILE * f_ = nullptr;
  std::mutex m_;
};

int64_t stamp_of(const builtin_interfaces::msg::Time & t)
{
  return static_cast<int64_t>(t.sec) * 1000000000 + t.nanosec;
}

builtin_interfaces::msg::Time time_of(int64_t ns)
{
  builtin_interfaces::msg::Time t;
  t.sec = static_cast<int32_t>(ns / 1000000000);
  t.nanosec = static_cast<uint32_t>(ns % 1000000000);
  return t;
}

geometry_msgs::msg::TransformStamped transform(int64_t stamp, const char * frame, const char * child)
{
  geometry_msgs::msg::TransformStamped t;
  t.header.stamp = time_of(stamp);
  t.header.frame_id = frame;
  t.child_frame_id = child;
  t.transform.rotation.w = 1.0;
  t.transform.translation.x = 1.0;
  return t;
}

class Wheels : public rclcpp::Node
{
public:
  Wheels(const rclcpp::NodeOptions & o, int period_ms)
  : Node("wheels", o), pub_(create_publisher<real::Header>("/wheel_odom", 10))
  {
    timer_ = create_wall_timer(
      std::chrono::milliseconds(period_ms), [this]() {
        real::Header h;
        h.stamp = time_of(real::now_ns());
        h.frame_id = "wheels";
        pub_->publish(h);
      });
  }

private:
  rclcpp::Publisher<real::Header>::SharedPtr pub_;
  rclcpp::TimerBase::SharedPtr timer_;
};

class Odometry : public rclcpp::Node
{
public:
  Odometry(TfTruth & t, const rclcpp::NodeOptions & o)
  : Node("odometry", o), truth_(t), broadcaster_(std::make_unique<tf2_ros::TransformBroadcaster>(*this))
  {
    sub_ = create_subscription<real::Header>(
      "/wheel_odom", 10, [this](const real::Header & h) {
        const int64_t stamp = stamp_of(h.stamp);
        truth_.line(
          "send,%p,%lld,odom,base_link,0\n", static_cast<void *>(broadcaster_.get()),
          static_cast<long long>(stamp));
        broadcaster_->sendTransform(transform(stamp, "odom", "base_link"));
      });
  }

private:
  TfTruth & truth_;
  std::unique_ptr<tf2_ros::TransformBroadcaster> broadcaster_;
  rclcpp::Subscription<real::Header>::SharedPtr sub_;
};

class MapStatic : public rclcpp::Node
{
public:
  MapStatic(TfTruth & t, const rclcpp::NodeOptions & o)
  : Node("map_static", o), broadcaster_(std::make_unique<tf2_ros::StaticTransformBroadcaster>(*this))
  {
    const int64_t stamp = real::now_ns();
    t.line(
      "send,%p,%lld,map,odom,1\n", static_cast<void *>(broadcaster_.get()),
      static_cast<long long>(stamp));
    broadcaster_->sendTransform(transform(stamp, "map", "odom"));
  }

private:
  std::unique_ptr<tf2_ros::StaticTransformBroadcaster> broadcaster_;
};

class Planner : public rclcpp::Node
{
public:
  Planner(TfTruth & t, const rclcpp::NodeOptions & o)
  : Node("planner", o), truth_(t), buffer_(std::make_unique<tf2_ros::Buffer>(get_clock())),
    listener_(std::make_unique<tf2_ros::TransformListener>(*buffer_)),
    pub_(create_publisher<real::Header>("/plan", 10))
  {
    core_ = static_cast<tf2::BufferCore *>(buffer_.get());
    truth_.line("buffer,%p\n", static_cast<void *>(core_));
    timer_ = create_wall_timer(
      std::chrono::milliseconds(100), [this]() {
        try {
          auto t = buffer_->lookupTransform("map", "base_link", tf2::TimePointZero);
          truth_.line(
            "lookup,%p,map,base_link,%lld\n", static_cast<void *>(core_),
            static_cast<long long>(stamp_of(t.header.stamp)));
          real::Header h;
          h.stamp = t.header.stamp;
          h.frame_id = "plan";
          pub_->publish(h);
          advanced_lookup(stamp_of(t.header.stamp));
        } catch (const tf2::TransformException &) {
          truth_.line("lookup_failed,%p,map,base_link\n", static_cast<void *>(core_));
        }
        // a frame no one broadcasts: tf2 throws every time, through the
        // tracer's hooks, and the app must catch it as without them
        try {
          buffer_->lookupTransform("map", "nowhere", tf2::TimePointZero);
          std::fprintf(stderr, "real_tf: a lookup of an unknown frame returned\n");
          std::exit(1);
        } catch (const tf2::TransformException &) {
          truth_.line("lookup_failed,%p,map,nowhere\n", static_cast<void *>(core_));
        }
      });
  }

private:
  // How far base_link moved in odom from 30 ms before `latest` to the
  // latest: the lookup with a fixed frame, which tf2 makes of two lookups
  // (odom <- base_link at the past time, then base_link <- odom at the
  // latest); the second's stamp is the one returned.
  void advanced_lookup(int64_t latest)
  {
    const int64_t past = latest - 30000000;
    try {
      auto t = buffer_->lookupTransform(
        "base_link", tf2::TimePointZero, "base_link",
        tf2::TimePoint(std::chrono::nanoseconds(past)), "odom");
      truth_.line(
        "lookup,%p,odom,base_link,%lld\nlookup,%p,base_link,odom,%lld\n",
        static_cast<void *>(core_), static_cast<long long>(past), static_cast<void *>(core_),
        static_cast<long long>(stamp_of(t.header.stamp)));
    } catch (const tf2::TransformException &) {
      // before the buffer held 30 ms: the first lookup threw
      truth_.line("lookup_failed,%p,odom,base_link\n", static_cast<void *>(core_));
    }
  }

  TfTruth & truth_;
  std::unique_ptr<tf2_ros::Buffer> buffer_;
  std::unique_ptr<tf2_ros::TransformListener> listener_;
  rclcpp::Publisher<real::Header>::SharedPtr pub_;
  rclcpp::TimerBase::SharedPtr timer_;
  tf2::BufferCore * core_ = nullptr;
};

}  // namespace

int main(int argc, char ** argv)
{
  real::Options o = real::parse(argc, argv);
  if (o.nodes.empty()) {
    o.nodes = {"wheels", "odometry", "map_static", "planner"};
  }
  rclcpp::init(argc, argv);
  {
    TfTruth truth(o);
    std::vector<rclcpp::Node::SharedPtr> nodes;
    rclcpp::executors::SingleThreadedExecutor exec;
    rclcpp::NodeOptions options;
    for (const auto & n : o.nodes) {
      if (n == "wheels") {
        nodes.push_back(std::make_shared<Wheels>(options, o.period_ms));
      } else if (n == "odometry") {
        nodes.push_back(std::make_shared<Odometry>(truth, options));
      } else if (n == "map_static") {
        nodes.push_back(std::make_shared<MapStatic>(truth, options));
      } else if (n == "planner") {
        nodes.push_back(std::make_shared<Planner>(truth, options));
      } else {
        real::usage(argv[0], ("no node " + n).c_str());
      }
      exec.add_node(nodes.back());
    }
    real::spin_for(exec, o.duration_s);
  }
  rclcpp::shutdown();
  std::printf("real_tf:");
  for (const auto & n : o.nodes) {
    std::printf(" %s", n.c_str());
  }
  std::printf(" done\n");
  return 0;
}
