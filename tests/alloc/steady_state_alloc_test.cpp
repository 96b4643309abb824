// Heap allocations in steady state: a server and real clients over loopback, 60 Hz ticks and snapshots,
// every cube moving. After a warm-up (connections, joins, the first snapshots, every buffer and pool grown
// to its working size) 1,000 ticks must not allocate. The global operator new is replaced here to count;
// ENet's own mallocs (its packet headers and commands, C code outside operator new) are counted through its
// allocation callbacks and printed, not asserted: they are ENet's business.
#include <enet/enet.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <new>
#include <vector>

#include "netcube/timeline/recorder.h"
#include "support/loopback_rig.h"

namespace {

std::atomic<bool> g_counting{false};
std::atomic<std::uint64_t> g_allocations{0};
std::atomic<std::uint64_t> g_enet_mallocs{0};

void* EnetMalloc(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_enet_mallocs.fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size);
}

}  // namespace

// AddressSanitizer owns operator new and delete (its runtime is loaded first), so a replacement here would
// pair its allocations with our frees: the count is taken in the other builds only.
#if defined(__SANITIZE_ADDRESS__)
#define NETCUBE_COUNTS_ALLOCATIONS 0
#else
#define NETCUBE_COUNTS_ALLOCATIONS 1
namespace {
void* Allocate(std::size_t size) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
}  // namespace

// The array and nothrow forms of the standard library call these.
void* operator new(std::size_t size) { return Allocate(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
#endif

namespace netcube {
namespace {

constexpr int kClients = 8;
constexpr int kTicks = 1000;
// Long enough for the servers' input buffers and the clients' input pacing to settle: until then the
// inputs in flight, and so the sizes of the recycled send buffers, are still finding their level.
constexpr Micros kWarmUp{6'000'000};

// Each client turns a quarter circle every half second, with a different phase, so cubes move, meet and
// collide all the time.
std::uint8_t HeldButtons(int client, Micros now) {
  constexpr std::uint8_t kPattern[] = {sim::kUp | sim::kRight, sim::kRight | sim::kDown,
                                       sim::kDown | sim::kLeft, sim::kLeft | sim::kUp};
  const auto phase = static_cast<std::size_t>((now.count() / 500'000 + client) % 4);
  return kPattern[phase];
}

// A thousand ticks of the server and kClients players; with `journaled`, every player's link logged into a
// journal and the journal recorded every 1/60 s, as a journaled lab run does.
void ExpectSteadyStateAllocatesNothing(bool journaled) {
  ENetCallbacks callbacks{};
  callbacks.malloc = EnetMalloc;
  callbacks.free = std::free;
  ASSERT_EQ(enet_initialize_with_callbacks(ENET_VERSION, &callbacks), 0);
  g_allocations = 0;
  g_enet_mallocs = 0;

  server::ServerConfig config;
  config.max_clients = kClients;
  config.tick_rate = 60;
  config.snapshot_rate = 60;
  std::string error;
  auto rig = testing::LoopbackRig::Create(config, &error);
  ASSERT_NE(rig, nullptr) << error;
  timeline::Journal journal(kClients);
  timeline::Recorder recorder(journal);

  std::vector<const client::Client*> clients;
  for (int i = 0; i < kClients; ++i) {
    client::ClientConfig client_config;
    client_config.name = "c" + std::to_string(i);
    // Half of them predict the others: their world re-simulation and rollbacks must allocate nothing either.
    if (i % 2 == 1) client_config.settings = client::PresetSettings(client::Preset::kPredictOthers);
    if (journaled) {
      client_config.incoming_link_log = recorder.DownLog(static_cast<std::size_t>(i));
      client_config.outgoing_link_log = recorder.UpLog(static_cast<std::size_t>(i));
    }
    client::Client* player = rig->AddPlayer(client_config, &error);
    ASSERT_NE(player, nullptr) << error;
    clients.push_back(player);
    rig->SetButtons(static_cast<std::size_t>(i), [i](Micros now) { return HeldButtons(i, now); });
  }
  std::int32_t frame = 0;
  Micros next_frame{0};
  const auto record = [&] {
    if (!journaled || rig->now() < next_frame) return;
    next_frame += Micros(1'000'000 / 60);
    recorder.Record(++frame, rig->now(), rig->server(), clients);
  };
  ASSERT_TRUE(rig->ConnectAll());
  rig->StepFor(kWarmUp, record);
  ASSERT_TRUE(rig->AllConnected());
  ASSERT_EQ(rig->server().world().size(), static_cast<std::size_t>(kClients));

  const std::uint32_t first_tick = rig->server().tick();
  const std::uint64_t snapshots_before = rig->player(0).metrics().snapshots_received;
  const std::uint64_t events_before = journal.client(0).total();
  g_counting = true;
  while (rig->server().tick() - first_tick < kTicks) {
    rig->Step();
    record();
  }
  g_counting = false;

  const std::uint64_t snapshots = rig->player(0).metrics().snapshots_received - snapshots_before;
  std::printf(
      "steady state%s, %d ticks, %d clients: %llu heap allocations, %llu ENet mallocs, %llu snapshots "
      "received by one client\n",
      journaled ? " (journaled)" : "", kTicks, kClients,
      static_cast<unsigned long long>(g_allocations.load()),
      static_cast<unsigned long long>(g_enet_mallocs.load()), static_cast<unsigned long long>(snapshots));
  EXPECT_GT(snapshots, static_cast<std::uint64_t>(kTicks * 9 / 10));  // the traffic really flowed
  if (journaled) {
    EXPECT_GT(journal.client(0).total(), events_before + kTicks);  // and was journaled
  }
  // Under AddressSanitizer the same traffic runs (ENet sending from our buffers is checked) but nothing is
  // counted.
  if (NETCUBE_COUNTS_ALLOCATIONS) {
    EXPECT_EQ(g_allocations.load(), 0u);
  }
}

TEST(SteadyState, AThousandTicksOfAServerWithClientsAllocateNothing) {
  ExpectSteadyStateAllocatesNothing(false);
}

TEST(SteadyState, JournalingThemAllocatesNothingEither) { ExpectSteadyStateAllocatesNothing(true); }

}  // namespace
}  // namespace netcube
