#pragma once
// Atom: an immutable string stored once however many events carry it. A history repeats the same
// few hundred strings (process names, locks, roles, the same commands and hash renderings) hundreds
// of thousands of times; an Atom is one pointer to a shared, reference-counted copy, so an event's
// nine strings cost 72 bytes, not 288 plus their heap. Equal texts are the same atom, so comparing
// two atoms compares pointers. Reading one is reading a std::string. Not for sharing between
// threads: locksim runs one (its counts are plain integers).
#include <compare>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>

namespace locksim {

class Atom {
 public:
  Atom() = default;  // ""
  explicit Atom(std::string_view text);
  Atom(const Atom& other) noexcept : rep_(other.rep_) {
    if (rep_) ++rep_->refs;
  }
  Atom(Atom&& other) noexcept : rep_(other.rep_) { other.rep_ = nullptr; }
  Atom& operator=(const Atom& other) noexcept {
    Atom copy(other);
    swap(copy);
    return *this;
  }
  Atom& operator=(Atom&& other) noexcept {
    Atom moved(std::move(other));
    swap(moved);
    return *this;
  }
  Atom& operator=(std::string_view text) { return *this = Atom(text); }
  Atom& operator=(const std::string& text) { return *this = Atom(text); }
  Atom& operator=(const char* text) { return *this = Atom(std::string_view(text)); }
  ~Atom() {
    if (rep_ && --rep_->refs == 0) release();
  }
  void swap(Atom& other) noexcept { std::swap(rep_, other.rep_); }

  const std::string& str() const { return rep_ ? rep_->text : empty_text(); }
  operator const std::string&() const { return str(); }  // NOLINT: reads as the string it is
  operator std::string_view() const { return str(); }  // NOLINT: as above
  std::string_view view() const { return str(); }
  // A std::string's reading, for the texts that are searched.
  bool empty() const { return rep_ == nullptr; }
  size_t size() const { return str().size(); }
  const char* c_str() const { return str().c_str(); }
  char operator[](size_t i) const { return str()[i]; }
  size_t find(std::string_view what, size_t from = 0) const { return view().find(what, from); }
  size_t find(char what, size_t from = 0) const { return view().find(what, from); }
  size_t rfind(std::string_view what, size_t from = std::string::npos) const { return view().rfind(what, from); }
  size_t rfind(char what, size_t from = std::string::npos) const { return view().rfind(what, from); }
  std::string substr(size_t from, size_t n = std::string::npos) const { return str().substr(from, n); }
  bool starts_with(std::string_view what) const { return view().starts_with(what); }
  bool ends_with(std::string_view what) const { return view().ends_with(what); }

  friend bool operator==(const Atom& a, const Atom& b) { return a.rep_ == b.rep_; }
  friend bool operator==(const Atom& a, std::string_view b) { return a.view() == b; }
  friend bool operator==(const Atom& a, const std::string& b) { return a.view() == b; }
  friend bool operator==(const Atom& a, const char* b) { return b ? a.view() == b : a.empty(); }
  friend std::strong_ordering operator<=>(const Atom& a, const Atom& b) { return a.view() <=> b.view(); }
  friend std::strong_ordering operator<=>(const Atom& a, std::string_view b) { return a.view() <=> b; }
  friend std::string operator+(const Atom& a, std::string_view b) { return std::string(a.view()).append(b); }
  friend std::string operator+(std::string_view a, const Atom& b) { return std::string(a).append(b.view()); }
  friend std::string operator+(const Atom& a, const Atom& b) { return a + b.view(); }
  friend std::string operator+(const Atom& a, char b) { return std::string(a.view()) + b; }
  friend std::string operator+(char a, const Atom& b) { return a + std::string(b.view()); }
  friend std::ostream& operator<<(std::ostream& out, const Atom& a);

  // How many distinct texts are alive.
  static size_t live_count();

 private:
  struct Rep {
    std::string text;
    size_t refs = 0;
    uint64_t hash = 0;
  };
  class Table;  // atom.cpp: the interning table, never iterated
  static Table& table();
  void release();
  static const std::string& empty_text();
  Rep* rep_ = nullptr;
};

}  // namespace locksim
