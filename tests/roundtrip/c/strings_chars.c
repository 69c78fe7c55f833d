/* String literals, char arrays, escape sequences, manual string routines. */
#include <stdio.h>
#include <string.h>

static const char greeting[] = "Hello, world";
static char scratch[64];

static int my_strlen(const char *s)
{
    const char *p = s;
    while (*p != '\0')
        p++;
    return (int)(p - s);
}

static void my_reverse(char *s)
{
    int i, j;
    char t;
    for (i = 0, j = my_strlen(s) - 1; i < j; i++, j--) {
        t = s[i];
        s[i] = s[j];
        s[j] = t;
    }
}

static int count_char(const char *s, char c)
{
    int n = 0;
    for (; *s; s++)
        n += (*s == c);
    return n;
}

static void to_upper(char *s)
{
    for (; *s; ++s)
        if (*s >= 'a' && *s <= 'z')
            *s = (char)(*s - 'a' + 'A');
}

int main(void)
{
    char word[] = "fortran";
    char letters[5] = {'a', 'b', 'c', 'd', '\0'};
    const char *multi = "adjacent " "literals " "concatenate";
    const char *escapes = "tab\tquote\"backslash\\ nl";
    char buf[32];
    int i;

    printf("%s has %d chars\n", greeting, my_strlen(greeting));
    my_reverse(word);
    printf("reversed: %s\n", word);
    printf("letters: %s\n", letters);
    printf("%s\n", multi);
    printf("%s\n", escapes);
    printf("count 'l' in greeting: %d\n", count_char(greeting, 'l'));

    strcpy(scratch, "mixed Case text");
    to_upper(scratch);
    printf("upper: %s\n", scratch);

    strcpy(buf, "abc");
    strcat(buf, "-def");
    printf("buf=%s len=%lu cmp=%d\n", buf, (unsigned long)strlen(buf), strcmp(buf, "abc-def") == 0);

    sprintf(buf, "%d-%.2f", 42, 3.14159);
    printf("sprintf: %s\n", buf);

    for (i = 0; word[i]; i++)
        printf("%c%c", word[i], word[i + 1] ? ',' : '\n');
    printf("char arith: %c %d %c\n", 'a' + 1, '9' - '0', "xyz"[1]);
    printf("octal/hex escapes: %d %d\n", '\101', '\x41');
    printf("percent sign: 100%%\n");
    return 0;
}
