#include "netcube/timeline/link_script.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <locale>
#include <sstream>

#include "netcube/timeline/recorder.h"

namespace netcube::timeline {
namespace {

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
    std::size_t end = i;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\r') ++end;
    if (end > i) words.push_back(text.substr(i, end - i));
    i = end;
  }
  return words;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t' || text.front() == '\r'))
    text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
    text.remove_suffix(1);
  return text;
}

// Digits with at most one '.', read in the classic locale (from_chars for a double is missing from libc++ 13,
// the browser build's; both round correctly, so both builds read the same value).
std::optional<double> Number(std::string_view text) {
  const bool plain =
      !text.empty() && std::count(text.begin(), text.end(), '.') <= 1 &&
      std::all_of(text.begin(), text.end(), [](char c) { return c == '.' || (c >= '0' && c <= '9'); });
  if (!plain || text == ".") return std::nullopt;
  std::istringstream stream{std::string(text)};
  stream.imbue(std::locale::classic());
  double value = 0.0;
  stream >> value;
  if (stream.fail() || !stream.eof() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// "2s", "1.5s", "400ms": at most an hour.
std::optional<Micros> Duration(std::string_view text) {
  double scale = 0.0;
  if (text.ends_with("ms")) {
    scale = 1e3;
    text.remove_suffix(2);
  } else if (text.ends_with("s")) {
    scale = 1e6;
    text.remove_suffix(1);
  } else {
    return std::nullopt;
  }
  const std::optional<double> value = Number(text);
  if (!value || *value * scale > 3600e6) return std::nullopt;
  return Micros(std::llround(*value * scale));
}

// "30%" or "0.3".
std::optional<double> Probability(std::string_view text) {
  double scale = 1.0;
  if (text.ends_with("%")) {
    scale = 0.01;
    text.remove_suffix(1);
  }
  const std::optional<double> value = Number(text);
  if (!value || *value * scale > 1.0) return std::nullopt;
  return *value * scale;
}

// "150ms" or "150": milliseconds, at most 10 s.
std::optional<double> Milliseconds(std::string_view text) {
  if (text.ends_with("ms")) text.remove_suffix(2);
  const std::optional<double> value = Number(text);
  if (!value || *value > 10'000.0) return std::nullopt;
  return value;
}

// The change's field and value from WHAT VALUE; why not, or empty.
std::string ParseWhat(std::string_view what, std::string_view word, LinkChange& change) {
  std::optional<double> value;
  if (what == "blackout") {
    change.field = LinkField::kBlackout;
    const std::optional<Micros> duration = Duration(word);
    if (!duration || duration->count() == 0) return "a blackout needs a duration, e.g. blackout 400ms";
    change.duration = *duration;
    value = 1.0;
  } else if (what == "loss" || what == "duplicate" || what == "reorder") {
    change.field = what == "loss"        ? LinkField::kLoss
                   : what == "duplicate" ? LinkField::kDuplicate
                                         : LinkField::kReorder;
    value = Probability(word);
    if (!value) return "'" + std::string(word) + "' is not a probability like 30% or 0.3";
  } else if (what == "latency" || what == "jitter") {
    change.field = what == "latency" ? LinkField::kLatency : LinkField::kJitter;
    value = Milliseconds(word);
    if (!value) return "'" + std::string(word) + "' is not a time like 150ms (at most 10000ms)";
  } else if (what == "clock") {
    // A forward step of the clients' clocks: "+300ms" or "300ms".
    change.field = LinkField::kClock;
    const std::optional<Micros> step = Duration(word.starts_with('+') ? word.substr(1) : word);
    if (!step || step->count() == 0) return "a clock step is forward, e.g. clock +300ms";
    change.duration = *step;
    value = 0.0;
  } else {
    return "unknown change '" + std::string(what) +
           "' (blackout, loss, latency, jitter, duplicate, reorder, clock)";
  }
  change.value = *value;
  return {};
}

// The words after AT WHAT VALUE: for DURATION, client N or server; why not, or empty.
std::string ParseQualifiers(const std::vector<std::string_view>& words, LinkChange& change) {
  for (std::size_t i = 3; i < words.size(); ++i) {
    if (words[i] == "for" && i + 1 < words.size() && change.field != LinkField::kBlackout &&
        change.field != LinkField::kClock) {
      const std::optional<Micros> duration = Duration(words[++i]);
      if (!duration || duration->count() == 0) return "'for' needs a duration like 1s";
      change.duration = *duration;
    } else if (words[i] == "client" && i + 1 < words.size() && !change.client && !change.server) {
      int n = 0;
      const std::string_view number = words[++i];
      const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), n);
      if (ec != std::errc() || end != number.data() + number.size() || n < 1 || n > 256) {
        return "'client' needs a player number from 1";
      }
      change.client = static_cast<std::size_t>(n - 1);
    } else if (words[i] == "server" && !change.client && !change.server &&
               change.field != LinkField::kClock) {
      change.server = true;
    } else {
      return "unexpected '" + std::string(words[i]) + "' (for DURATION, client N or server)";
    }
  }
  return {};
}

std::optional<LinkChange> ParseChange(std::string_view text, std::string* error) {
  const std::vector<std::string_view> words = Words(text);
  const auto fail = [&](const std::string& why) {
    *error = "'" + std::string(text) + "': " + why;
    return std::nullopt;
  };
  if (words.size() < 3) return fail("expected AT WHAT VALUE, e.g. 2s loss 30%");
  LinkChange change;
  change.text = std::string(text);
  const std::optional<Micros> at = Duration(words[0]);
  if (!at) return fail("the time '" + std::string(words[0]) + "' is not like 2s or 400ms");
  change.at = *at;
  if (const std::string why = ParseWhat(words[1], words[2], change); !why.empty()) return fail(why);
  if (const std::string why = ParseQualifiers(words, change); !why.empty()) return fail(why);
  return change;
}

double& FieldOf(transport::LinkSettings& link, LinkField field) {
  switch (field) {
    case LinkField::kBlackout:
    case LinkField::kClock:  // not a link setting: Apply steps the client's clock instead
    case LinkField::kLoss:
      return link.loss;
    case LinkField::kLatency:
      return link.latency_ms;
    case LinkField::kJitter:
      return link.jitter_ms;
    case LinkField::kDuplicate:
      return link.duplicate;
    case LinkField::kReorder:
      return link.reorder;
  }
  return link.loss;
}

}  // namespace

std::optional<std::vector<LinkChange>> ParseLinkScript(std::string_view text, std::string* error) {
  std::vector<LinkChange> changes;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find(';'), text.find('\n'));
    const std::string_view part = Trim(text.substr(0, end));
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (part.empty()) continue;
    std::optional<LinkChange> change = ParseChange(part, error);
    if (!change) return std::nullopt;
    changes.push_back(std::move(*change));
  }
  if (changes.empty()) {
    *error = "the link script is empty";
    return std::nullopt;
  }
  return changes;
}

LinkScriptPlayer::LinkScriptPlayer(std::vector<LinkChange> changes) : changes_(std::move(changes)) {
  for (std::size_t i = 0; i < changes_.size(); ++i) order_.push_back(i);
  std::stable_sort(order_.begin(), order_.end(),
                   [&](std::size_t a, std::size_t b) { return changes_[a].at < changes_[b].at; });
}

void LinkScriptPlayer::Apply(std::int32_t frame, Micros now, server::Server* server,
                             std::span<client::Client* const> clients, Recorder* recorder) {
  const auto link_of = [&](std::size_t target) {
    return target == 0 ? server->config().link : clients[target - 1]->link();
  };
  const auto set_link = [&](std::size_t target, const transport::LinkSettings& link) {
    if (target == 0) {
      server->SetLink(link);
    } else {
      clients[target - 1]->SetLink(link);
    }
  };
  // Ends first: a change that ends as another starts gives way to it.
  for (auto restore = restores_.begin(); restore != restores_.end();) {
    if (restore->at > now) {
      ++restore;
      continue;
    }
    transport::LinkSettings link = link_of(restore->target);
    FieldOf(link, changes_[restore->change].field) = restore->value;
    set_link(restore->target, link);
    restore = restores_.erase(restore);
  }
  for (; next_ < order_.size() && changes_[order_[next_]].at <= now; ++next_) {
    const std::size_t index = order_[next_];
    const LinkChange& change = changes_[index];
    for (std::size_t target = 0; target <= clients.size(); ++target) {
      const bool chosen =
          change.server ? target == 0 : target > 0 && (!change.client || *change.client == target - 1);
      if (!chosen || (target == 0 && server == nullptr) || (target > 0 && clients[target - 1] == nullptr))
        continue;
      if (change.field == LinkField::kClock) {
        clients[target - 1]->StepClock(change.duration);
        if (recorder != nullptr) recorder->RecordClockStep(frame, now, index, target - 1, change.duration);
        continue;
      }
      transport::LinkSettings link = link_of(target);
      double& field = FieldOf(link, change.field);
      if (change.duration.count() > 0) restores_.push_back({now + change.duration, index, target, field});
      field = change.value;
      set_link(target, link);
      if (recorder != nullptr)
        recorder->RecordLinkChange(frame, now, index, static_cast<std::uint16_t>(target));
    }
  }
}

}  // namespace netcube::timeline
