#include "ccurl.h"
#include <pthread.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static CURLcode init_result;
static void init(void) { init_result = curl_global_init(CURL_GLOBAL_DEFAULT); }

CURLcode ccurl_global_init(void) { pthread_once(&once, init); return init_result; }
CURLcode ccurl_set_long(CURL *c, CURLoption o, long v) { return curl_easy_setopt(c, o, v); }
CURLcode ccurl_set_off(CURL *c, CURLoption o, curl_off_t v) { return curl_easy_setopt(c, o, v); }
CURLcode ccurl_set_string(CURL *c, CURLoption o, const char *v) { return curl_easy_setopt(c, o, v); }
CURLcode ccurl_set_pointer(CURL *c, CURLoption o, void *v) { return curl_easy_setopt(c, o, v); }
CURLcode ccurl_set_write(CURL *c, ccurl_data_fn fn, void *user) {
    CURLcode r = curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, fn);
    return r != CURLE_OK ? r : curl_easy_setopt(c, CURLOPT_WRITEDATA, user);
}
CURLcode ccurl_set_header(CURL *c, ccurl_data_fn fn, void *user) {
    CURLcode r = curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, fn);
    return r != CURLE_OK ? r : curl_easy_setopt(c, CURLOPT_HEADERDATA, user);
}
CURLcode ccurl_set_progress(CURL *c, ccurl_progress_fn fn, void *user) {
    CURLcode r = curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, fn);
    if (r == CURLE_OK) r = curl_easy_setopt(c, CURLOPT_XFERINFODATA, user);
    return r != CURLE_OK ? r : curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
}
long ccurl_response_code(CURL *c) { long code = 0; curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code); return code; }
const char *ccurl_info_string(CURL *c, CURLINFO info) { char *s = NULL; curl_easy_getinfo(c, info, &s); return s; }
