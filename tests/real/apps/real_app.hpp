// real_app.hpp - what every real rclcpp test app shares: its options, and
// its ground truth in the testbed's CSV format (testbed/runtime/truth.h,
// docs/testbed.md), read next to the rclcpp calls.
//
// rclcpp traces callbacks by objects the app cannot see (a subscription's
// AnySubscriptionCallback, a timer's callback_ member), so the truth names a
// callback by the rcl handle of its timer, subscription or service, and
// writes "?" where it cannot know an address (tests/integration/arch_check.c
// and records_check.c resolve both through the architecture).
//
// Messages are std_msgs/Header: stamp = the chain's origin (the CLOCK_MONOTONIC
// start of the timer run that began it), frame_id = "<publisher id>:<seq>".
#ifndef CARET_REAL_APP_HPP
#define CARET_REAL_APP_HPP

#include <cxxabi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <stdexcept>
#include <thread>
#include <typeinfo>
#include <vector>

#include <rclcpp/rclcpp.hpp>
#include <std_msgs/msg/header.hpp>

#include "truth.h"

namespace real
{

using Header = std_msgs::msg::Header;

inline int64_t now_ns()
{
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

// Busy work, as a callback's own computation.
inline void work_us(int64_t us)
{
  const int64_t until = now_ns() + us * 1000;
  while (now_ns() < until) {
  }
}

struct Options
{
  std::string process = "app";    // names the truth files
  std::string truth_dir;          // no truth when empty
  double duration_s = 3.0;        // then the app stops by itself
  std::vector<std::string> nodes; // which nodes this process runs
  bool intra = false;             // intra-process communication
  int period_ms = 20;
  std::string executor = "single_threaded"; // or "events" (Jazzy's EventsExecutor)
  // --stall MS@S: the relaying node sleeps MS ms once, in its first run S
  // seconds or more after it started (a deadline missed on purpose)
  int stall_ms = 0;
  double stall_at_s = 0;
  // --filter-timer MS[:keep|:consume]: the relaying node keeps its input and
  // publishes from a timer of its own every MS ms, the latest input each
  // time (keep), or only the first time after it came (consume: the other
  // outputs carry no input, origin 0)
  int filter_timer_ms = 0;
  bool filter_consume = false;
  // --busy MS:EVERY: the node "busy" (in --nodes) keeps its process's
  // executor busy MS ms out of every EVERY ms (a timer that spins)
  int busy_ms = 10;
  int busy_every_ms = 50;
  // --filter-work US: /filter's callback spins US microseconds more (a
  // slowdown injected on purpose: caret compare finds it)
  int filter_work_us = 0;
};

[[noreturn]] inline void usage(const char * program, const char * what)
{
  std::fprintf(
    stderr, "%s: %s\nusage: %s [--process NAME] [--truth DIR] [--duration S] "
    "[--nodes A,B,...] [--intra] [--period-ms N] [--executor single_threaded|events] "
    "[--stall MS@S] [--filter-timer MS[:keep|:consume]] [--busy MS:EVERY] "
    "[--filter-work US]\n",
    program, what, program);
  std::exit(2);
}

// Our options; the rest (--ros-args ...) is rclcpp's.
inline Options parse(int argc, char ** argv)
{
  Options o;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
        if (i + 1 >= argc) {
          usage(argv[0], (a + " needs a value").c_str());
        }
        return argv[++i];
      };
    if (a == "--process") {
      o.process = value();
    } else if (a == "--truth") {
      o.truth_dir = value();
    } else if (a == "--duration") {
      o.duration_s = std::atof(value().c_str());
    } else if (a == "--period-ms") {
      o.period_ms = std::atoi(value().c_str());
    } else if (a == "--stall") {
      std::string v = value();
      size_t at = v.find('@');
      if (at == std::string::npos) {
        usage(argv[0], "--stall takes MS@S, e.g. 120@2.5");
      }
      o.stall_ms = std::atoi(v.substr(0, at).c_str());
      o.stall_at_s = std::atof(v.substr(at + 1).c_str());
    } else if (a == "--filter-timer") {
      std::string v = value();
      size_t colon = v.find(':');
      std::string mode = colon == std::string::npos ? "keep" : v.substr(colon + 1);
      if (mode != "keep" && mode != "consume") {
        usage(argv[0], "--filter-timer takes MS[:keep|:consume], e.g. 20:consume");
      }
      o.filter_timer_ms = std::atoi(v.substr(0, colon).c_str());
      o.filter_consume = mode == "consume";
    } else if (a == "--busy") {
      std::string v = value();
      size_t colon = v.find(':');
      if (colon == std::string::npos) {
        usage(argv[0], "--busy takes MS:EVERY, e.g. 15:50");
      }
      o.busy_ms = std::atoi(v.substr(0, colon).c_str());
      o.busy_every_ms = std::atoi(v.substr(colon + 1).c_str());
    } else if (a == "--filter-work") {
      o.filter_work_us = std::atoi(value().c_str());
      if (o.filter_work_us < 0) {
        usage(argv[0], "--filter-work takes microseconds, 0 or more");
      }
    } else if (a == "--intra") {
      o.intra = true;
    } else if (a == "--executor") {
      o.executor = value();
    } else if (a == "--nodes") {
      std::string list = value();
      for (size_t start = 0; start <= list.size(); ) {
        size_t comma = list.find(',', start);
        if (comma == std::string::npos) {
          comma = list.size();
        }
        if (comma > start) {
          o.nodes.push_back(list.substr(start, comma - start));
        }
        start = comma + 1;
      }
    } else if (a == "--ros-args") {
      break;
    } else {
      usage(argv[0], ("unknown option " + a).c_str());
    }
  }
  return o;
}

inline bool has_node(const Options & o, const std::string & name)
{
  for (const auto & n : o.nodes) {
    if (n == name) {
      return true;
    }
  }
  return false;
}

// What tracetools records as a lambda's symbol: its demangled type name.
template<typename L>
std::string symbol_of(const L & l)
{
  int status = 0;
  char * d = abi::__cxa_demangle(typeid(l).name(), nullptr, nullptr, &status);
  std::string s = status == 0 && d ? d : typeid(l).name();
  std::free(d);
  return s;
}

inline const char * group_type(const rclcpp::CallbackGroup & g)
{
  return g.type() == rclcpp::CallbackGroupType::Reentrant ? "reentrant" : "mutually_exclusive";
}

inline const void * node_handle(rclcpp::Node & node)
{
  return node.get_node_base_interface()->get_rcl_node_handle();
}

// The process's ground truth. At its end, the CPU time the process used,
// "user_ns system_ns" in DIR/<process>.cpu.<pid> (bench/real).
class Truth
{
public:
  explicit Truth(const Options & o)
  : dir_(o.truth_dir), process_(o.process)
  {
    if (!o.truth_dir.empty()) {
      t_ = tb_truth_open(o.truth_dir.c_str(), o.process.c_str(), static_cast<int>(getpid()));
      if (!t_) {
        std::perror(o.truth_dir.c_str());
        std::exit(1);
      }
    }
  }
  ~Truth()
  {
    tb_truth_close(t_);
    rusage u;
    if (!dir_.empty() && getrusage(RUSAGE_SELF, &u) == 0) {
      const std::string path = dir_ + "/" + process_ + ".cpu." + std::to_string(getpid());
      if (FILE * f = std::fopen(path.c_str(), "w")) {
        std::fprintf(
          f, "%lld %lld\n", static_cast<long long>(u.ru_utime.tv_sec) * 1000000000LL +
          u.ru_utime.tv_usec * 1000LL,
          static_cast<long long>(u.ru_stime.tv_sec) * 1000000000LL + u.ru_stime.tv_usec * 1000LL);
        std::fclose(f);
      }
    }
  }
  Truth(const Truth &) = delete;
  Truth & operator=(const Truth &) = delete;

  tb_truth * raw() const {return t_;}

  // A node as rclcpp made it: the node, its default group, and what rclcpp
  // itself created in it (/rosout and /parameter_events publishers, the
  // parameter services, the /parameter_events subscription). Called before
  // the app adds its own objects, so rows stay in creation order.
  void node(rclcpp::Node & node)
  {
    const std::string fqn = node.get_fully_qualified_name();
    entity("node", fqn, node.get_name(), node_handle(node));
    auto group = node.get_node_base_interface()->get_default_callback_group();
    callback_group(node, group);
    for (const char * topic : {"/rosout", "/parameter_events"}) {
      entity("publisher", fqn, topic, TB_TRUTH_UNKNOWN);
    }
    node.get_node_base_interface()->for_each_callback_group(
      [&](rclcpp::CallbackGroup::SharedPtr g) {
        g->collect_all_ptrs(
          [&](const rclcpp::SubscriptionBase::SharedPtr & s) {
            entity(
              "subscription", fqn, s->get_topic_name(), s->get_subscription_handle().get(),
              TB_TRUTH_UNKNOWN, g.get(), "?");
          },
          [&](const rclcpp::ServiceBase::SharedPtr & s) {
            entity(
              "service", fqn, s->get_service_name(), s->get_service_handle().get(),
              TB_TRUTH_UNKNOWN, g.get(), "?");
          },
          [&](const rclcpp::ClientBase::SharedPtr & c) {
            entity(
              "client", fqn, c->get_service_name(), c->get_client_handle().get(), nullptr,
              g.get());
          },
          [&](const rclcpp::TimerBase::SharedPtr & t) {
            entity("timer", fqn, "timer", t->get_timer_handle().get(), TB_TRUTH_UNKNOWN, g.get(), "?");
          },
          [](const rclcpp::Waitable::SharedPtr &) {});
      });
  }

  void callback_group(rclcpp::Node & node, const rclcpp::CallbackGroup::SharedPtr & g)
  {
    entity(
      "callback_group", node.get_fully_qualified_name(), group_type(*g), nullptr, nullptr,
      g.get());
  }

  void publisher(rclcpp::Node & node, rclcpp::PublisherBase & p)
  {
    entity(
      "publisher", node.get_fully_qualified_name(), p.get_topic_name(),
      p.get_publisher_handle().get());
  }

  template<typename L>
  void timer(
    rclcpp::Node & node, rclcpp::TimerBase & t, const L & callback,
    const rclcpp::CallbackGroup::SharedPtr & g, int64_t period_ns)
  {
    // The clock the firings count from is rcl's, read just before this.
    entity(
      "timer", node.get_fully_qualified_name(), "timer", t.get_timer_handle().get(),
      TB_TRUTH_UNKNOWN, group_of(node, g), symbol_of(callback).c_str(), period_ns);
  }

  template<typename L>
  void subscription(
    rclcpp::Node & node, rclcpp::SubscriptionBase & s, const L & callback,
    const rclcpp::CallbackGroup::SharedPtr & g)
  {
    entity(
      "subscription", node.get_fully_qualified_name(), s.get_topic_name(),
      s.get_subscription_handle().get(), TB_TRUTH_UNKNOWN, group_of(node, g),
      symbol_of(callback).c_str());
  }

  template<typename L>
  void service(
    rclcpp::Node & node, rclcpp::ServiceBase & s, const L & callback,
    const rclcpp::CallbackGroup::SharedPtr & g)
  {
    entity(
      "service", node.get_fully_qualified_name(), s.get_service_name(),
      s.get_service_handle().get(), TB_TRUTH_UNKNOWN, group_of(node, g),
      symbol_of(callback).c_str());
  }

  void client(rclcpp::Node & node, rclcpp::ClientBase & c, const rclcpp::CallbackGroup::SharedPtr & g)
  {
    entity(
      "client", node.get_fully_qualified_name(), c.get_service_name(),
      c.get_client_handle().get(), nullptr, group_of(node, g));
  }

  // An executor (its address is the one rclcpp's constructor gets). The
  // static executor's entities collector is private: unknown.
  void executor(const rclcpp::Executor & e, const char * type)
  {
    const bool is_static = std::strcmp(type, "static_single_threaded_executor") == 0;
    entity("executor", "", type, &e, is_static ? TB_TRUTH_UNKNOWN : nullptr);
  }

  // Every group of node that executor e took with it.
  void executor_node(const rclcpp::Executor & e, rclcpp::Node & node)
  {
    node.get_node_base_interface()->for_each_callback_group(
      [&](rclcpp::CallbackGroup::SharedPtr g) {
        if (g->automatically_add_to_executor_with_node()) {
          entity("executor_group", node.get_fully_qualified_name(), group_type(*g), &e, nullptr, g.get());
        }
      });
  }

  void callback(
    const std::string & node, const char * name, const void * handle, const char * kind,
    int64_t start, int64_t end)
  {
    tb_truth_callback(t_, node.c_str(), name, handle, kind, start, end);
  }

private:
  std::string dir_, process_;
  tb_truth * t_ = nullptr;

  void entity(
    const char * kind, const std::string & node, const std::string & name, const void * handle,
    const void * callback = nullptr, const void * group = nullptr, const char * symbol = "",
    int64_t period = 0)
  {
    tb_truth_entity(t_, kind, node.c_str(), name.c_str(), handle, callback, group, symbol, period);
  }

  static const void * group_of(rclcpp::Node & node, const rclcpp::CallbackGroup::SharedPtr & g)
  {
    return g ? g.get() : node.get_node_base_interface()->get_default_callback_group().get();
  }
};

// One callback run, timed from its construction to end() or its end of
// scope.
class Run
{
public:
  Run(Truth & t, std::string node, const char * name, const void * const & handle, const char * kind)
  : truth_(t), node_(std::move(node)), name_(name), handle_(handle), kind_(kind), start(now_ns())
  {
  }
  ~Run() {truth_.callback(node_, name_, handle_, kind_, start, end ? end : now_ns());}
  Run(const Run &) = delete;
  Run & operator=(const Run &) = delete;

  int64_t finish() {return end = now_ns();}

private:
  Truth & truth_;
  std::string node_;
  const char * name_;
  const void * const & handle_; // set once the entity exists
  const char * kind_;

public:
  const int64_t start;
  int64_t end = 0;
};

// A Header publisher that writes every publish into the truth.
class Publisher
{
public:
  Publisher(Truth & t, rclcpp::Node & node, const std::string & topic, size_t depth = 10)
  : truth_(t), node_(node.get_fully_qualified_name()),
    pub_(node.create_publisher<Header>(topic, depth))
  {
    static std::atomic<uint64_t> next{1};
    id_ = (static_cast<uint64_t>(getpid()) << 20) | next++;
    t.publisher(node, *pub_);
  }

  // A message of the chain that began at origin.
  void publish(int64_t origin)
  {
    auto msg = std::make_unique<Header>();
    msg->stamp.sec = static_cast<int32_t>(origin / 1000000000);
    msg->stamp.nanosec = static_cast<uint32_t>(origin % 1000000000);
    const uint64_t seq = ++seq_;
    msg->frame_id = std::to_string(id_) + ":" + std::to_string(seq);
    const size_t intra = pub_->get_intra_process_subscription_count();
    const bool inter = pub_->get_subscription_count() > intra;
    const int64_t time = now_ns();
    pub_->publish(std::move(msg));
    tb_truth_publish(
      truth_.raw(), node_.c_str(), pub_->get_topic_name(), id_, seq, origin, origin, time,
      static_cast<unsigned>(intra), inter);
  }

private:
  Truth & truth_;
  std::string node_;
  rclcpp::Publisher<Header>::SharedPtr pub_;
  uint64_t id_ = 0, seq_ = 0;
};

// What a received message says of itself.
struct Received
{
  uint64_t publisher = 0, seq = 0;
  int64_t origin = 0;
};

inline Received received(const Header & m)
{
  Received r;
  r.origin = static_cast<int64_t>(m.stamp.sec) * 1000000000 + m.stamp.nanosec;
  std::sscanf(m.frame_id.c_str(), "%lu:%lu", &r.publisher, &r.seq);
  return r;
}

inline void log_receive(
  Truth & t, const std::string & node, const char * callback_name, const std::string & topic,
  const Header & m, const rclcpp::MessageInfo & info, int64_t time)
{
  const Received r = received(m);
  const auto & mi = info.get_rmw_message_info();
  tb_truth_receive(
    t.raw(), node.c_str(), callback_name, topic.c_str(), r.publisher, r.seq, r.origin, r.origin,
    mi.from_intra_process ? 0 : mi.source_timestamp, time, mi.from_intra_process);
}

// A wall timer of node whose every run goes into the truth as `name`;
// fn(run) is the run's work.
template<typename Fn>
rclcpp::TimerBase::SharedPtr timer(
  Truth & t, rclcpp::Node & node, int period_ms, const char * name, Fn fn,
  const rclcpp::CallbackGroup::SharedPtr & group = nullptr)
{
  // the handle is known once the timer is; the node may go before a run ends
  auto handle = std::make_shared<const void *>(nullptr);
  auto callback = [&t, fqn = std::string(node.get_fully_qualified_name()), name, handle, fn]() {
      Run run(t, fqn, name, *handle, "timer");
      fn(run);
    };
  auto timer = node.create_wall_timer(std::chrono::milliseconds(period_ms), callback, group);
  *handle = timer->get_timer_handle().get();
  t.timer(node, *timer, callback, group, period_ms * 1000000LL);
  return timer;
}

// A Header subscription of node whose every run and message go into the
// truth as `name`; fn(message, run) is the run's work.
template<typename Fn>
rclcpp::Subscription<Header>::SharedPtr subscription(
  Truth & t, rclcpp::Node & node, const std::string & topic, const char * name, Fn fn,
  const rclcpp::CallbackGroup::SharedPtr & group = nullptr)
{
  auto handle = std::make_shared<const void *>(nullptr);
  auto callback = [&t, fqn = std::string(node.get_fully_qualified_name()), topic, name, handle,
      fn](Header::ConstSharedPtr msg, const rclcpp::MessageInfo & info) {
      Run run(t, fqn, name, *handle, "subscription");
      log_receive(t, fqn, name, topic, *msg, info, run.start);
      fn(*msg, run);
    };
  rclcpp::SubscriptionOptions options;
  options.callback_group = group;
  auto sub = node.create_subscription<Header>(topic, 10, callback, options);
  *handle = sub->get_subscription_handle().get();
  t.subscription(node, *sub, callback, group);
  return sub;
}

// Spins exec until duration_s has passed or rclcpp is shut down (SIGINT).
inline void spin_for(rclcpp::Executor & exec, double duration_s)
{
  std::atomic<bool> done{false};
  std::thread stopper([&]() {
      const auto until = std::chrono::steady_clock::now() +
      std::chrono::milliseconds(static_cast<int64_t>(duration_s * 1000));
      while (!done && rclcpp::ok() && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      while (!done) {  // a cancel before spin() began would be lost
        exec.cancel();
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    });
  try {
    exec.spin();
  } catch (const std::runtime_error &) {
    // Ctrl-C shut rclcpp down while a callback, or rclcpp_action's own
    // work, called into rcl (an RCLError, or rclcpp_action's "Failed to
    // accept new goal" for a goal that arrived as rcl shut down): the app
    // is stopping. Else it is an error.
    if (rclcpp::ok()) {
      done = true;
      stopper.join();
      throw;
    }
  }
  done = true;
  stopper.join();
}

}  // namespace real

#endif  // CARET_REAL_APP_HPP
