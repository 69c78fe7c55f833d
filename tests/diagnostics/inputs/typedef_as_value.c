typedef double real;

int main(void)
{
    double x = 1.0;
    x = real + 1.0;
    return (int)x;
}
