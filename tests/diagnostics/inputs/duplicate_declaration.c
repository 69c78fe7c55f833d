int main(void)
{
    double a = 1.0;
    double a = 2.0;
    return (int)a;
}
