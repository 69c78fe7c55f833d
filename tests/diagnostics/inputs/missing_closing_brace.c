double square(double x)
{
    return x * x;

int main(void)
{
    return (int)square(2.0);
}
