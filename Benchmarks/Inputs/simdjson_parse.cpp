// simdjson's DOM parse of a file's bytes already in memory (issue 23's reference figure): the file is read
// once into a padded buffer, then parsed RUNS times with one reused parser; prints the median and the best
// parse in milliseconds. Built by Scripts/bench against Debian's libsimdjson-dev:
//
//     c++ -O2 -std=c++17 simdjson_parse.cpp -lsimdjson -o simdjson_parse && ./simdjson_parse FILE [RUNS]
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: simdjson_parse FILE [RUNS]\n");
        return 2;
    }
    const int runs = argc > 2 ? std::atoi(argv[2]) : 50;
    simdjson::padded_string bytes;
    if (simdjson::padded_string::load(argv[1]).get(bytes)) {
        std::fprintf(stderr, "simdjson_parse: cannot read %s\n", argv[1]);
        return 1;
    }
    simdjson::dom::parser parser;
    std::vector<double> ms;
    for (int i = 0; i < runs + 3; i++) {
        auto start = std::chrono::steady_clock::now();
        simdjson::dom::element root;
        if (parser.parse(bytes).get(root)) {
            std::fprintf(stderr, "simdjson_parse: %s is not JSON\n", argv[1]);
            return 1;
        }
        auto end = std::chrono::steady_clock::now();
        if (i >= 3) ms.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
    std::sort(ms.begin(), ms.end());
    std::printf("median\t%.3f\nbest\t%.3f\nbytes\t%zu\n", ms[ms.size() / 2], ms.front(), bytes.size());
    return 0;
}
