// real_pipeline - sensor -> filter -> sink on real rclcpp: /sensor publishes
// /topic_a from a timer, /filter republishes each message on /topic_b,
// /sink ends the chain. --nodes picks the nodes of this process (all three
// by default; "none": rclcpp initialized, no node), one
// SingleThreadedExecutor (--executor events: Jazzy's EventsExecutor);
// --intra turns intra-process communication on; --stall MS@S makes /filter
// sleep MS ms once, S seconds after it started; --filter-timer MS[:MODE]
// makes /filter timer-driven (it publishes its latest input every MS ms);
// the node "busy" (--nodes ...,busy) keeps its process's executor busy
// --busy MS:EVERY (a timer spinning MS ms every EVERY ms): the messages of
// the process's subscriptions then wait for the executor; --filter-work US
// makes /filter's callback spin US microseconds more before it publishes
// (a slowdown of one node, for caret compare).
#if __has_include(<rclcpp/experimental/executors/events_executor/events_executor.hpp>)
#include <rclcpp/experimental/executors/events_executor/events_executor.hpp>
#define HAVE_EVENTS_EXECUTOR 1
#endif

#include "real_app.hpp"

namespace
{

class Sensor : public rclcpp::Node
{
public:
  Sensor(real::Truth & t, const rclcpp::NodeOptions & o, int period_ms)
  : Node("sensor", o)
  {
    t.node(*this);
    pub_ = std::make_unique<real::Publisher>(t, *this, "/topic_a");
    timer_ = real::timer(t, *this, period_ms, "timer_callback_0", [this](const real::Run & run) {
          real::work_us(100);
          pub_->publish(run.start);
        });
  }

private:
  std::unique_ptr<real::Publisher> pub_;
  rclcpp::TimerBase::SharedPtr timer_;
};

class Busy : public rclcpp::Node
{
public:
  Busy(real::Truth & t, const rclcpp::NodeOptions & o, int busy_ms, int every_ms)
  : Node("busy", o)
  {
    t.node(*this);
    timer_ = real::timer(t, *this, every_ms, "timer_callback_0", [busy_ms](const real::Run &) {
          real::work_us(static_cast<int64_t>(busy_ms) * 1000);
        });
  }

private:
  rclcpp::TimerBase::SharedPtr timer_;
};

// Receives on `in`; republishes on `out` unless it is empty (then it ends
// the chain). With a timer (timer_ms > 0) it keeps its input and publishes
// from the timer instead: the latest input every time, or (consume) only
// the first time after it came, the other outputs carrying none.
class Relay : public rclcpp::Node
{
public:
  Relay(
    real::Truth & t, const rclcpp::NodeOptions & o, const char * name, const std::string & in,
    const std::string & out, int stall_ms = 0, double stall_at_s = 0, int timer_ms = 0,
    bool consume = false, int work_us = 0)
  : Node(name, o), stall_ms_(stall_ms), work_us_(work_us),
    stall_at_ns_(real::now_ns() + static_cast<int64_t>(stall_at_s * 1e9))
  {
    t.node(*this);
    if (!out.empty()) {
      pub_ = std::make_unique<real::Publisher>(t, *this, out);
    }
    if (pub_ && timer_ms > 0) {
      timer_ = real::timer(t, *this, timer_ms, "timer_callback_0",
          [this, consume](const real::Run &) {
            if (latest_ == 0) {
              return;
            }
            real::work_us(100);
            pub_->publish(!consume || fresh_ ? latest_ : 0);
            fresh_ = false;
          });
    }
    sub_ = real::subscription(t, *this, in, "subscription_callback_0",
        [this, &t, in](const real::Header & msg, real::Run & run) {
          real::work_us(200 + work_us_);
          if (stall_ms_ > 0 && real::now_ns() >= stall_at_ns_) {
            std::this_thread::sleep_for(std::chrono::milliseconds(stall_ms_));
            stall_ms_ = 0;
          }
          const real::Received r = real::received(msg);
          if (timer_) {
            latest_ = r.origin;
            fresh_ = true;
          } else if (pub_) {
            pub_->publish(r.origin);
          } else if (r.origin != 0) { // origin 0: an output that carried no input
            tb_truth_e2e(t.raw(), get_fully_qualified_name(), "subscription_callback_0", in.c_str(),
              r.publisher, r.seq, r.origin, run.finish());
          }
        });
  }

private:
  std::unique_ptr<real::Publisher> pub_;
  rclcpp::Subscription<real::Header>::SharedPtr sub_;
  rclcpp::TimerBase::SharedPtr timer_;
  int64_t latest_ = 0; // the origin of the input kept (timer mode)
  bool fresh_ = false; // not yet published (timer mode)
  int stall_ms_;
  int work_us_;
  int64_t stall_at_ns_;
};

}  // namespace

int main(int argc, char ** argv)
{
  real::Options o = real::parse(argc, argv);
  if (o.nodes.empty()) {
    o.nodes = {"sensor", "filter", "sink"};
  }
  rclcpp::init(argc, argv);
  {
    real::Truth truth(o);
    // Nodes outlive the executor: the handles it holds from its last wait
    // must go before their node (else rclcpp complains on stderr).
    std::vector<rclcpp::Node::SharedPtr> nodes;
    std::unique_ptr<rclcpp::Executor> executor;
    if (o.executor == "events") {
#ifdef HAVE_EVENTS_EXECUTOR
      executor = std::make_unique<rclcpp::experimental::executors::EventsExecutor>();
      truth.executor(*executor, "events_executor");
#else
      real::usage(argv[0], "no EventsExecutor in this rclcpp");
#endif
    } else {
      executor = std::make_unique<rclcpp::executors::SingleThreadedExecutor>();
      truth.executor(*executor, "single_threaded_executor");
    }
    rclcpp::Executor & exec = *executor;
    rclcpp::NodeOptions options;
    options.use_intra_process_comms(o.intra);
    for (const auto & n : o.nodes) {
      if (n == "none") {
        continue;
      }
      if (n == "sensor") {
        nodes.push_back(std::make_shared<Sensor>(truth, options, o.period_ms));
      } else if (n == "filter") {
        nodes.push_back(std::make_shared<Relay>(truth, options, "filter", "/topic_a", "/topic_b",
          o.stall_ms, o.stall_at_s, o.filter_timer_ms, o.filter_consume, o.filter_work_us));
      } else if (n == "sink") {
        nodes.push_back(std::make_shared<Relay>(truth, options, "sink", "/topic_b", ""));
      } else if (n == "busy") {
        nodes.push_back(std::make_shared<Busy>(truth, options, o.busy_ms, o.busy_every_ms));
      } else {
        real::usage(argv[0], ("no node " + n).c_str());
      }
      exec.add_node(nodes.back());
      truth.executor_node(exec, *nodes.back());
    }
    if (nodes.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(o.duration_s * 1000)));
    } else {
      real::spin_for(exec, o.duration_s);
    }
  }
  rclcpp::shutdown();
  std::printf("real_pipeline:");
  for (const auto & n : o.nodes) {
    std::printf(" %s", n.c_str());
  }
  std::printf(" done\n");
  return 0;
}
