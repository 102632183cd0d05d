// errors.cpp — error-message plumbing for the C boundary: formats messages, flattens them to one
// line and copies them, truncated and NUL-terminated, into the caller's `char *err, int errlen`.
#include "internal.hpp"

#include <sys/stat.h>

#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace sfw {

void set_error(char *err, int errlen, const std::string &message) {
    if (err == nullptr || errlen <= 0) return;
    std::string line = message;
    for (char &c : line)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    while (!line.empty() && line.back() == ' ') line.pop_back();
    const size_t n = std::min(line.size(), static_cast<size_t>(errlen - 1));
    std::memcpy(err, line.data(), n);
    err[n] = '\0';
}

std::string format(const char *fmt, ...) {
    char buffer[1024];
    va_list args;
    va_start(args, fmt);
    const int n = std::vsnprintf(buffer, sizeof buffer, fmt, args);
    va_end(args);
    if (n < 0) return fmt;
    return std::string(buffer, std::min(static_cast<size_t>(n), sizeof buffer - 1));
}

bool is_regular_file(const char *path) {
    struct stat st;
    return path != nullptr && ::stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

} // namespace sfw

extern "C" const char *sfw_opencv_version(void) { return CV_VERSION; }
