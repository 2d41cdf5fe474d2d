// 100,000 one-byte writes, unbuffered.
#include <unistd.h>
int main()
{
    for (int i = 0; i < 100000; ++i)
        if (write(1, i % 100 == 99 ? "\n" : "z", 1) != 1)
            return 1;
    return 0;
}
