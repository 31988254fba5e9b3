// real_executors - the executor kinds and callback layouts of rclcpp in one
// process: /timers has two timers of the same period publishing /ticks, on
// a StaticSingleThreadedExecutor in its own thread; /listener has two
// subscriptions to /ticks in a reentrant group, on a MultiThreadedExecutor
// with two threads (the two may run at once).
#include "real_app.hpp"

namespace
{

class Timers : public rclcpp::Node
{
public:
  Timers(real::Truth & t, int period_ms)
  : Node("timers")
  {
    t.node(*this);
    pub_ = std::make_unique<real::Publisher>(t, *this, "/ticks");
    auto work = [this](const real::Run & run) {
        real::work_us(150);
        pub_->publish(run.start);
      };
    timers_[0] = real::timer(t, *this, period_ms, "timer_callback_0", work);
    timers_[1] = real::timer(t, *this, period_ms, "timer_callback_1", work);
  }

private:
  std::unique_ptr<real::Publisher> pub_;
  rclcpp::TimerBase::SharedPtr timers_[2];
};

class Listener : public rclcpp::Node
{
public:
  explicit Listener(real::Truth & t)
  : Node("listener")
  {
    t.node(*this);
    group_ = create_callback_group(rclcpp::CallbackGroupType::Reentrant);
    t.callback_group(*this, group_);
    // long enough for the other one to run meanwhile
    auto work = [](const real::Header &, real::Run &) {real::work_us(3000);};
    subs_[0] = real::subscription(t, *this, "/ticks", "subscription_callback_0", work, group_);
    subs_[1] = real::subscription(t, *this, "/ticks", "subscription_callback_1", work, group_);
  }

private:
  rclcpp::CallbackGroup::SharedPtr group_;
  rclcpp::Subscription<real::Header>::SharedPtr subs_[2];
};

}  // namespace

int main(int argc, char ** argv)
{
  real::Options o = real::parse(argc, argv);
  rclcpp::init(argc, argv);
  {
    real::Truth truth(o);
    auto listener = std::make_shared<Listener>(truth);
    auto timers = std::make_shared<Timers>(truth, o.period_ms);

    rclcpp::executors::MultiThreadedExecutor multi(rclcpp::ExecutorOptions(), 2);
    truth.executor(multi, "multi_threaded_executor");
    multi.add_node(listener);
    truth.executor_node(multi, *listener);

    rclcpp::executors::StaticSingleThreadedExecutor single;
    truth.executor(single, "static_single_threaded_executor");
    single.add_node(timers);
    truth.executor_node(single, *timers);

    std::thread static_thread([&]() {real::spin_for(single, o.duration_s);});
    real::spin_for(multi, o.duration_s);
    static_thread.join();
  }
  rclcpp::shutdown();
  std::printf("real_executors: done\n");
  return 0;
}
