// CCurl — libcurl's easy interface for Swift: curl_easy_setopt and curl_easy_getinfo are C
// variadic functions, which Swift cannot call, so each argument type gets a plain wrapper.
#ifndef CCURL_H
#define CCURL_H
#include <curl/curl.h>

typedef size_t (*ccurl_data_fn)(char *data, size_t size, size_t count, void *user);
typedef int (*ccurl_progress_fn)(void *user, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

/// curl_global_init(CURL_GLOBAL_DEFAULT), once per process (thread-safe).
CURLcode ccurl_global_init(void);
CURLcode ccurl_set_long(CURL *curl, CURLoption option, long value);
CURLcode ccurl_set_off(CURL *curl, CURLoption option, curl_off_t value);
CURLcode ccurl_set_string(CURL *curl, CURLoption option, const char *value);
CURLcode ccurl_set_pointer(CURL *curl, CURLoption option, void *value);
/// The body (CURLOPT_WRITEFUNCTION + CURLOPT_WRITEDATA).
CURLcode ccurl_set_write(CURL *curl, ccurl_data_fn fn, void *user);
/// Each header line of every response, redirects included (CURLOPT_HEADERFUNCTION + HEADERDATA).
CURLcode ccurl_set_header(CURL *curl, ccurl_data_fn fn, void *user);
/// Progress, and a way to stop (CURLOPT_XFERINFOFUNCTION + XFERINFODATA, NOPROGRESS off).
CURLcode ccurl_set_progress(CURL *curl, ccurl_progress_fn fn, void *user);
long ccurl_response_code(CURL *curl);
/// A string CURLINFO (e.g. CURLINFO_EFFECTIVE_URL), or NULL.
const char *ccurl_info_string(CURL *curl, CURLINFO info);
#endif
